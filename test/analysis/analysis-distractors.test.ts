import { expectNoInstants } from './analysis-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import { createIncident } from '../support/incidents.ts';
import { analyse, deployHelloWorld, mapServices, postSignal } from './support.ts';

/** checkout calls hello-world, which reads orders-db; search stands apart from all three. */
const NAMES = ['checkout', 'hello-world', 'orders-db', 'search'];
const MAP: [string, string][] = [
  ['checkout', 'hello-world'],
  ['hello-world', 'orders-db'],
];

describe('analysis: evidence that points nowhere is not blamed', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  it('does not blame a deploy of an unrelated service released just before', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Red Herring Co');
    await mapServices(client, admin, NAMES, MAP);
    await deployHelloWorld(client, keyHeaders, 2);
    const alert = await postSignal(client, admin, { name: 'search latency above 2 s', serviceId: 'search' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'search' })).id;

    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.rootCause).toMatch(/^A fault within search/);
    expect(analysis.citations.rootCause).toEqual([`signal:${alert}`]);
    expect(analysis.evidence.map((item: { id: string }) => item.id)).toEqual([`signal:${alert}`]);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.3);
    expect(analysis.confidence).toBeLessThanOrEqual(0.5);
  });

  it('keeps a lone alert on a service with nothing behind it below a confident answer', async () => {
    const { admin } = await createTenant(client, 'Lone Alert Co');
    await mapServices(client, admin, NAMES, MAP);
    const alert = await postSignal(client, admin, { name: 'orders-db disk above 90%', serviceId: 'orders-db' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'orders-db' })).id;

    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.evidence.map((item: { id: string }) => item.id)).toEqual([`signal:${alert}`]);
    expect(analysis.rootCause).toMatch(/^A fault within orders-db; what in it failed is not in the evidence/);
    expect(analysis.hypothesis).toMatch(/its alerts began at \d{2}:\d{2} on \d{1,2} \w+ \d{4} \(UTC\)/);
    expect(analysis.citations.rootCause).toEqual([`signal:${alert}`]);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0.3);
    expect(analysis.confidence).toBeLessThanOrEqual(0.5);
  });
});
