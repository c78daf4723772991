import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReasoner } from '#lib/analysis/engine/default-reasoner.ts';
import type { Reasoner } from '#lib/ports/reasoner/reasoner.ts';
import { handler as analysisWorker } from '#functions/analysis-worker/index.ts';
import { apiKeyHeaders, joinAs, type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { ASSISTANT, settle } from './support.ts';
import { createIncident } from '../support/incidents.ts';

/**
 * The default engine, except that hypothesis generation fails as often as `failures` says (-1: always), and
 * waits for `stalled` to resolve while one is set.
 */
const flakyReasoner = () => {
  const control: { failures: number; calls: number; stalled?: Promise<void> } = { failures: 0, calls: 0 };
  const reasoner: Reasoner = {
    ...defaultReasoner,
    hypothesize: async (evidence) => {
      control.calls += 1;
      await control.stalled;
      if (control.failures !== 0) {
        control.failures -= 1;
        throw new Error('the reasoner is unavailable');
      }
      return defaultReasoner.hypothesize(evidence);
    },
  };
  /** Holds every hypothesis until the answered release is called. */
  const hold = (): (() => void) => {
    const resumed = new AbortController();
    control.stalled = once(resumed.signal, 'abort').then(() => undefined);
    return () => {
      control.stalled = undefined;
      resumed.abort();
    };
  };
  return { reasoner, control, hold };
};

describe('analysis workflow and routes', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  const flaky = flakyReasoner();

  const start = (incidentId: string, as: SignedIn | Record<string, string> = admin) =>
    client.request(
      'POST',
      `${ASSISTANT}/analyse`,
      { incidentId },
      'auth' in as ? (as.auth as Record<string, string>) : as,
    );
  const list = async (query = '', as: SignedIn = admin) => {
    const reply = await client.request('GET', `${ASSISTANT}/analyses${query}`, undefined, as.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };

  beforeAll(async () => {
    // Retries counted, not waited out: the deployed intervals are the stack-data test's (test/infra/stack-data.test.ts).
    client = await startTestStack(undefined, undefined, { reasoner: flaky.reasoner, workflowRetryWaitMs: 0 });
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    viewer = await joinAs(client, admin, 'VIEWER');
  });
  afterAll(() => client.stack.stop());

  it('stores PROCESSING, answers the running analysis instead of a second one, then completes it', async () => {
    const incidentId = (await createIncident(client, admin.auth)).id;
    // Held at its hypothesis until read as PROCESSING: the execution runs beside the requests.
    const release = flaky.hold();
    const first = await start(incidentId);
    expect(first.status, first.text).toBe(202);
    expect(first.body.data).toMatchObject({
      incidentId,
      status: 'PROCESSING',
      stage: 'queued',
      estimatedCompletionSeconds: 30,
    });
    const again = await start(incidentId);
    expect(again.status).toBe(200);
    expect(again.body.data.analysisId).toBe(first.body.data.analysisId);
    const statusOf = async () => {
      const reply = await client.request(
        'GET',
        `${ASSISTANT}/analyses/${first.body.data.analysisId}`,
        undefined,
        viewer.auth,
      );
      expect(reply.status, reply.text).toBe(200);
      return reply.body.data;
    };
    expect(await statusOf()).toMatchObject({ incidentId, status: 'PROCESSING', completedAt: null });
    release();
    await settle(client);
    expect(await statusOf()).toMatchObject({ status: 'COMPLETE', stage: 'remediation-planning' });
    expect((await statusOf()).hypothesis).toEqual(expect.any(String));

    const done = await list('?status=COMPLETE');
    expect(done.data.map((analysis: { analysisId: string }) => analysis.analysisId)).toContain(
      first.body.data.analysisId,
    );
    expect(done.total).toBe(done.data.length);
    const next = await start(incidentId);
    expect(next.status).toBe(202);
    expect(next.body.data.analysisId).not.toBe(first.body.data.analysisId);
    // Measured now: the estimate is the run just finished, in whole seconds, no longer the default.
    expect(next.body.data.estimatedCompletionSeconds).toBeLessThan(30);
    await settle(client);
    const all = await list();
    expect(all.total).toBe(2);
    expect(all.data.map((analysis: { analysisId: string }) => analysis.analysisId)).toEqual([
      next.body.data.analysisId,
      first.body.data.analysisId,
    ]);
    expect((await list('?status=PROCESSING')).total).toBe(0);
  });

  it('retries a failing stage and completes when a retry succeeds', async () => {
    const incidentId = (await createIncident(client, admin.auth)).id;
    flaky.control.failures = 1;
    flaky.control.calls = 0;
    await start(incidentId);
    await settle(client);
    expect(flaky.control.calls).toBe(2);
    const reply = await client.request('GET', `${ASSISTANT}/analysis/${incidentId}`, undefined, admin.auth);
    expect(reply.body.data.status).toBe('COMPLETE');
  });

  it('records FAILED with the reason when a stage keeps failing, and frees the incident for a new analysis', async () => {
    const incidentId = (await createIncident(client, admin.auth)).id;
    flaky.control.failures = -1;
    flaky.control.calls = 0;
    const started = await start(incidentId);
    await settle(client);
    flaky.control.failures = 0;
    expect(flaky.control.calls).toBe(3);
    const failed = (await list('?status=FAILED')).data.find(
      (analysis: { analysisId: string }) => analysis.analysisId === started.body.data.analysisId,
    );
    expect(failed).toMatchObject({
      status: 'FAILED',
      stage: 'failed',
      failureReason: 'Error: the reasoner is unavailable',
    });
    const polled = await client.request('GET', `${ASSISTANT}/analyses/${failed.analysisId}`, undefined, admin.auth);
    expect(polled.body.data).toEqual(failed);
    expect((await client.request('GET', `${ASSISTANT}/analysis/${incidentId}`, undefined, admin.auth)).status).toBe(
      404,
    );
    const report = await client.request(
      'POST',
      `${ASSISTANT}/report`,
      { analysisId: failed.analysisId, audience: 'ENGINEER' },
      admin.auth,
    );
    expect(report.status).toBe(409);
    expect((await start(incidentId)).status).toBe(202);
    await settle(client);
  });

  // A timed-out or aborted execution runs no Catch: before the rule on unfinished executions, its analysis stayed
  // PROCESSING and held the incident's claim forever.
  it('records an execution that ended without MarkFailed as FAILED, and frees the incident', async () => {
    const incidentId = (await createIncident(client, admin.auth)).id;
    const release = flaky.hold();
    const started = await start(incidentId);
    const { analysisId, createdAt } = started.body.data;
    await analysisWorker({
      'detail-type': 'Step Functions Execution Status Change',
      detail: {
        status: 'TIMED_OUT',
        input: JSON.stringify({ workspaceId: admin.user.businessId, analysisId, incidentId, requestedAt: createdAt }),
      },
    });
    const failed = (await list('?status=FAILED')).data.find(
      (analysis: { analysisId: string }) => analysis.analysisId === analysisId,
    );
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReason: 'Execution TIMED_OUT: the analysis execution ended TIMED_OUT',
    });
    const again = await start(incidentId);
    expect(again.status, again.text).toBe(202);
    expect(again.body.data.analysisId).not.toBe(analysisId);
    release();
    await settle(client);
  });

  it('leaves the list and its totals with the incident it belonged to, once however often it is deleted', async () => {
    const owner = await signUpBusiness(client, { businessName: 'Deleting Co' });
    const [kept, deleted] = [
      (await createIncident(client, owner.auth)).id,
      (await createIncident(client, owner.auth)).id,
    ];
    for (const incidentId of [kept, deleted, deleted]) {
      expect((await start(incidentId, owner)).status).toBe(202);
      await settle(client);
    }
    expect((await list('', owner)).total).toBe(3);
    const remove = () => client.request('DELETE', `/api/v1/incident-ticket/${deleted}`, undefined, owner.auth);
    expect((await Promise.all([remove(), remove()])).map((reply) => reply.status).sort()).toEqual([200, 404]);
    const left = await list('', owner);
    expect(left.data.map((analysis: { incidentId: string }) => analysis.incidentId)).toEqual([kept]);
    expect(left.total).toBe(1);
    expect((await list('?status=COMPLETE', owner)).total).toBe(1);
  });

  it("refuses bad input with one message per field, and other workspaces' ids with 404", async () => {
    const bad = await client.request('POST', `${ASSISTANT}/report`, { audience: 'BOARD' }, admin.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['analysisId', 'audience']);
    expect(
      (await client.request('GET', `${ASSISTANT}/analyses?status=DONE&limit=0`, undefined, admin.auth)).body.errors,
    ).toHaveLength(2);
    expect(
      (await client.request('POST', `${ASSISTANT}/learn`, { incidentId: 'x', outcome: 'GREAT' }, admin.auth)).status,
    ).toBe(400);
    // Incident ids count per workspace and day: the other workspace's tenth names nothing here.
    let theirs = '';
    for (let count = 0; count < 10; count += 1) theirs = (await createIncident(client, other.auth)).id;
    expect((await start(theirs)).status).toBe(404);
    expect((await client.request('GET', `${ASSISTANT}/analysis/${theirs}`, undefined, admin.auth)).status).toBe(404);
    const otherAnalysis = await start(theirs, other);
    await settle(client);
    const report = { analysisId: otherAnalysis.body.data.analysisId, audience: 'ENGINEER' };
    expect((await client.request('POST', `${ASSISTANT}/report`, report, admin.auth)).status).toBe(404);
    for (const analysisId of [report.analysisId, '01J0000000000000000000000Z', 'not-an-id']) {
      const polled = await client.request('GET', `${ASSISTANT}/analyses/${analysisId}`, undefined, admin.auth);
      expect(polled.status, analysisId).toBe(404);
      expect(polled.body.errors).toEqual([`analysisId: no analysis ${analysisId} in this workspace`]);
    }
    expect(
      (await client.request('GET', `${ASSISTANT}/analyses/${report.analysisId}`, undefined, other.auth)).body.data,
    ).toMatchObject({ status: 'COMPLETE', incidentId: theirs });
    expect((await client.request('POST', `${ASSISTANT}/report`, report, other.auth)).status).toBe(201);
    expect((await list('', other)).total).toBe(1);
  });

  it('lets a VIEWER and a postmortems:read key read only, and a postmortems:write key start', async () => {
    const incidentId = (await createIncident(client, admin.auth)).id;
    expect((await start(incidentId, viewer)).status).toBe(403);
    expect((await client.request('GET', `${ASSISTANT}/analyses`, undefined, viewer.auth)).status).toBe(200);
    expect((await client.request('GET', `${ASSISTANT}/patterns`, undefined, viewer.auth)).status).toBe(200);
    const reader = await apiKeyHeaders(client, admin, ['postmortems:read']);
    const writer = await apiKeyHeaders(client, admin, ['postmortems:write']);
    const incidentsKey = await apiKeyHeaders(client, admin, ['incidents:read', 'incidents:write']);
    expect((await start(incidentId, reader)).status).toBe(403);
    expect((await client.request('GET', `${ASSISTANT}/analyses`, undefined, reader)).status).toBe(200);
    expect((await client.request('GET', `${ASSISTANT}/analyses`, undefined, incidentsKey)).status).toBe(403);
    expect((await start(incidentId, writer)).status).toBe(202);
    await settle(client);
  });
});
