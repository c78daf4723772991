import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS, startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import { INCIDENTS } from '../support/incidents.ts';
import { analyse, deployHelloWorld, mapServices, postSignal } from './support.ts';

describe('analysis of an incident correlation opened from a signal', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack(':memory:', GENEROUS_RATE_LIMITS, { workers: true });
  });
  afterAll(() => client.stack.stop());

  it('takes the signal once, though it is both linked and in its service window, and counts it once', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Correlated Co');
    await mapServices(client, admin, ['hello-world'], []);
    await deployHelloWorld(client, keyHeaders, 3);
    const signalId = await postSignal(client, admin, { name: 'hello-world 5xx above 5%', serviceId: 'hello-world' });
    await client.stack.workers?.idle();
    const signal = await client.request('GET', `/api/v1/signals/${signalId}`, undefined, admin.auth);
    const incidentId = signal.body.data.incidentId as string;
    expect(incidentId, 'correlation opened an incident from the HIGH signal').toMatch(/^INC-/);
    const incident = await client.request('GET', `${INCIDENTS}/${incidentId}`, undefined, admin.auth);
    expect(incident.body.data.serviceArea).toBe('hello-world');

    const analysis = await analyse(client, admin, incidentId);
    const ids = analysis.evidence.map((item: { id: string }) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id: string) => id === `signal:${signalId}`)).toHaveLength(1);
    expect(analysis.hypothesis).toMatch(/; 1 alert on hello-world/);
    expect(analysis.impactAssessment).toMatch(/: 1 signal on the service \(1 HIGH\)/);
  });
});
