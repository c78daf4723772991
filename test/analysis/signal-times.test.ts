import { expectNoInstants } from './analysis-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, postRaw, SIGNALS } from '../ingestion-routes/support.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { ASSISTANT, analyse, deployHelloWorld } from './support.ts';

const DEPLOY_ID = 'deploy:codehost_a-145988746';
const MINUTE = 60_000;

describe('analysis: a signal is evidence at the time it fired, not when it was delivered', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { workers: true });
  });
  afterAll(() => client.stack.stop());

  /**
   * A workspace whose service `api` (the real Alertmanager alert's `service` label) is built from
   * `Codertocat/Hello-World`, deployed 45 minutes ago; then the real alert, fired `firedMinutesAgo` and
   * delivered now, and the incident correlation opens from it.
   */
  const deployThenAlert = async (name: string, firedMinutesAgo: number) => {
    const { admin, keyHeaders } = await createTenant(client, name);
    const service = await client.request(
      'POST',
      '/api/v1/service-map',
      { name: 'api', repository: 'Codertocat/Hello-World' },
      admin.auth,
    );
    expect(service.status, service.text).toBe(201);
    await deployHelloWorld(client, keyHeaders, 45);
    const alert = loadFixture('metrics-alerts', 'captured.json');
    const startsAt = new Date(Date.now() - firedMinutesAgo * MINUTE).toISOString();
    const body = JSON.stringify(withFields(alert.body, { 'alerts.0.startsAt': startsAt }));
    const { signalId } = expectAccepted(
      await postRaw(client, 'metrics-alerts', body, alert.headers, { headers: keyHeaders }),
    );
    await client.stack.workers?.idle();
    const signal = await client.request('GET', `${SIGNALS}/${signalId}`, undefined, admin.auth);
    expect(signal.body.data.incidentId, signal.text).toEqual(expect.any(String));
    return { admin, signalId, incidentId: signal.body.data.incidentId as string, startsAt };
  };

  /** The leadership report of an analysis: where the plain cause says how long before the problem the update went out. */
  const leadershipOf = async (as: { auth: Record<string, string> }, analysisId: string): Promise<string> => {
    const reply = await client.request('POST', `${ASSISTANT}/report`, { analysisId, audience: 'LEADERSHIP' }, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.content as string;
  };

  it('blames a deploy 5 minutes before the alert fired, though the alert came 40 minutes after it', async () => {
    const { admin, signalId, incidentId, startsAt } = await deployThenAlert('Late Alert Co', 40);
    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);

    expect(analysis.citations.rootCause).toEqual([DEPLOY_ID]);
    expect(analysis.hypothesis).toMatch(/went out 5 minutes before the incident began/);
    expect(await leadershipOf(admin, analysis.analysisId)).toMatch(/released to the api service shortly before/);
    const signal = analysis.evidence.find((item: { id: string }) => item.id === `signal:${signalId}`);
    expect(signal.at).toBe(startsAt);
    expect(Date.parse(signal.details.receivedAt) - Date.parse(signal.at)).toBeGreaterThanOrEqual(40 * MINUTE);
    expect(signal.summary).toMatch(/delivered 40 min late/);
    expect(analysis.hypothesis).toMatch(/1 alert on api/);
  });

  it('does not say "shortly before" of the same deploy when the alert fired as it was delivered', async () => {
    const { admin, signalId, incidentId } = await deployThenAlert('Prompt Alert Co', 0);
    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);

    expect(analysis.hypothesis).toMatch(/went out 45 minutes before the incident began/);
    const leadership = await leadershipOf(admin, analysis.analysisId);
    expect(leadership).not.toMatch(/shortly before/);
    expect(leadership).toMatch(/released to the api service about 45 minutes before/);
    const signal = analysis.evidence.find((item: { id: string }) => item.id === `signal:${signalId}`);
    expect(signal.summary).not.toMatch(/late/);
  });

  it("takes a firing time ahead of the clock as the arrival (the sender's clock runs fast)", async () => {
    const { admin, signalId, incidentId } = await deployThenAlert('Fast Clock Co', -30);
    const analysis = await analyse(client, admin, incidentId);
    await expectNoInstants(client, admin, analysis);

    const signal = analysis.evidence.find((item: { id: string }) => item.id === `signal:${signalId}`);
    expect(signal.at).toBe(signal.details.receivedAt);
    expect(analysis.hypothesis).toMatch(/went out 45 minutes before the incident began/);
  });
});
