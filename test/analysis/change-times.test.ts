import { expectNoInstants } from './analysis-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, listChanges, postRaw } from '../ingestion-routes/support.ts';
import { loadFixture } from '../ingestion/support.ts';
import { createIncident } from '../support/incidents.ts';
import { analyse, deployHelloWorld, mapServices, postSignal } from './support.ts';

const DEPLOY_ID = 'deploy:codehost_a-145988746';
const MINUTE = 60_000;

describe('analysis: a change is evidence at the time it happened, not when its webhook arrived', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  /** A workspace with the service `hello-world`, a deploy of it dated `minutesAgo`, then an alert and its incident. */
  const deployThenAlert = async (name: string, minutesAgo: number) => {
    const { admin, keyHeaders } = await createTenant(client, name);
    await mapServices(client, admin, ['hello-world'], []);
    await deployHelloWorld(client, keyHeaders, minutesAgo);
    await postSignal(client, admin, { name: 'hello-world 5xx above 5%', serviceId: 'hello-world' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'hello-world' })).id as string;
    return { admin, incidentId };
  };

  it('does not blame a deploy that ran five hours before the alert, however recently its webhook came', async () => {
    const { admin, incidentId } = await deployThenAlert('Late Webhook Co', 300);
    const [change] = await listChanges(client, admin.auth);
    expect(Date.now() - Date.parse(change?.createdAt)).toBeGreaterThan(299 * MINUTE);

    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.rootCause).not.toMatch(/Deployment/);
    expect(analysis.confidence).toBeLessThanOrEqual(0.5);
    expect(analysis.evidence.map((item: { id: string }) => item.id)).not.toContain(DEPLOY_ID);
  });

  it('blames the same deploy dated three minutes before, at its own time with its arrival beside it', async () => {
    const { admin, incidentId } = await deployThenAlert('Prompt Webhook Co', 3);
    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.confidence).toBeGreaterThan(0.5);
    expect(analysis.hypothesis).toMatch(/went out 3 minutes before the incident began/);
    const deploy = analysis.evidence.find((item: { id: string }) => item.id === DEPLOY_ID);
    expect(Date.parse(deploy.details.receivedAt) - Date.parse(deploy.at)).toBeGreaterThan(2 * MINUTE);
  });

  it('still finds a deploy that ran before the incident began but was delivered after it opened', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Delayed Delivery Co');
    await mapServices(client, admin, ['hello-world'], []);
    await postSignal(client, admin, { name: 'hello-world 5xx above 5%', serviceId: 'hello-world' });
    const incidentId = (await createIncident(client, admin.auth, { serviceArea: 'hello-world' })).id as string;
    await deployHelloWorld(client, keyHeaders, 10);

    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);
    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.hypothesis).toMatch(
      /\(SUCCEEDED; webhook 10 min late\) went out 10 minutes before the incident began/,
    );
  });

  it("places code host B's deployment at its status time, however late it is delivered", async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Code Host B Co');
    const fixture = loadFixture('codehost-b', 'deployment.json');
    expectAccepted(await postRaw(client, 'codehost-b', fixture.raw, fixture.headers, { headers: keyHeaders }));
    const [change] = await listChanges(client, admin.auth);
    expect(change).toMatchObject({ id: 'codehost_b-15', createdAt: '2021-04-28T19:50:00.000Z' });
  });
});
