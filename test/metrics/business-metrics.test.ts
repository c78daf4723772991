import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as ingestionWorker } from '#functions/ingestion-worker/index.ts';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import type { MetricsSnapshot } from '#infra/local/local-metrics.ts';
import { loadFixture } from '../ingestion/support.ts';
import { createTenant, expectAccepted, postRaw, type Tenant } from '../ingestion-routes/support.ts';
import { INCIDENTS, getSignal, postSignal, startCorrelationWorker, unique } from '../correlation/support.ts';
import { drainQueue, withThrottledStore, writesSignalStore } from '../signals/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

describe('business metrics, read from GET /_local/metrics', () => {
  let client: TestClient;
  let worker: QueuePoller;
  let tenant: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    worker = startCorrelationWorker(client);
    tenant = await createTenant(client, 'Measured Co');
  });
  afterAll(async () => {
    await worker.stop();
    await client.stack.stop();
  });

  const snapshot = async (): Promise<MetricsSnapshot> => {
    const reply = await client.request('GET', '/_local/metrics');
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };

  /** What the counts gained while `run` ran, the correlation worker settled before and after. */
  const gained = async (run: () => Promise<void>): Promise<Record<string, number>> => {
    await worker.idle();
    const before = await snapshot();
    await run();
    await worker.idle();
    const after = await snapshot();
    return Object.fromEntries(
      Object.entries(after.counts).map(([name, count]) => [
        name,
        count - (before.counts as Record<string, number>)[name]!,
      ]),
    );
  };

  it('counts an alert sent twice as ingested once and deduplicated once', async () => {
    const alert = loadFixture('metrics-alerts', 'captured.json');
    const post = () => postRaw(client, 'metrics-alerts', alert.raw, alert.headers, { headers: tenant.keyHeaders });
    const counts = await gained(async () => {
      expect(expectAccepted(await post()).deduplicated).toBe(false);
      expect(expectAccepted(await post()).deduplicated).toBe(true);
    });
    expect(counts).toMatchObject({ SignalsIngested: 1, SignalsDeduplicated: 1 });
  });

  it('counts a delivery the sender retried as deduplicated, never as ingested again', async () => {
    const push = loadFixture('codehost-a', 'deployment_status.created.0.json');
    const post = () => postRaw(client, 'codehost-a', push.raw, push.headers, { headers: tenant.keyHeaders });
    const counts = await gained(async () => {
      const first = expectAccepted(await post());
      expect(first.signals).toHaveLength(1);
      expect(first.deduplicated).toBe(false);
      const retried = expectAccepted(await post());
      expect(retried).toMatchObject({ signalId: first.signalId, deduplicated: true });
    });
    expect(counts).toMatchObject({ SignalsIngested: 1, SignalsDeduplicated: 1 });
  });

  it('counts a queued event when the ingestion worker stores it, and not again when SQS delivers it twice', async () => {
    const { auth } = tenant.admin;
    const queued = await gained(async () => {
      const reply = await withThrottledStore(client.stack.ports, writesSignalStore, () =>
        client.request(
          'POST',
          '/api/v1/signals',
          { source: 'metrics-alerts', name: unique('Queue depth'), severity: 'LOW' },
          auth,
        ),
      );
      expect(reply.status, reply.text).toBe(202);
    });
    expect(queued).toMatchObject({ SignalsIngested: 0, SignalsDeduplicated: 0 });

    const [body] = await drainQueue(client.stack.queues, 'ingestion');
    const delivery = { Records: [{ messageId: 'm-1', body }] } as SQSEvent;
    const stored = await gained(async () => {
      expect(await ingestionWorker(delivery)).toEqual({ batchItemFailures: [] });
      expect(await ingestionWorker(delivery)).toEqual({ batchItemFailures: [] });
    });
    expect(stored).toMatchObject({ SignalsIngested: 1, SignalsDeduplicated: 0 });
  });

  it('counts an incident opened once, and resolved each time it ends, not on resolving or closing it when it is resolved or closed', async () => {
    const { auth } = tenant.admin;
    const counts = await gained(async () => {
      const created = await client.request('POST', INCIDENTS, { summary: 'Checkout down', priority: 'HIGH' }, auth);
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as string;
      expect((await client.request('POST', `${INCIDENTS}/resolve/${id}`, undefined, auth)).status).toBe(200);
      expect((await client.request('POST', `${INCIDENTS}/resolve/${id}`, undefined, auth)).status).toBe(200);
      // Closing a resolved incident ends nothing new; reopening and closing it resolves it again.
      for (const status of ['CLOSED', 'OPEN', 'CLOSED']) {
        const moved = await client.request('PUT', `${INCIDENTS}/${id}`, { status }, auth);
        expect(moved.status, moved.text).toBe(200);
      }
      // Resolving the CLOSED incident moves its status, not its resolution time: no new resolution.
      expect((await client.request('POST', `${INCIDENTS}/resolve/${id}`, undefined, auth)).status).toBe(200);
    });
    expect(counts).toMatchObject({ IncidentsOpened: 1, IncidentsResolved: 2 });
  });

  it('counts an incident correlation opens, and measures each signal’s correlation lag once', async () => {
    const { auth } = tenant.admin;
    const before = await snapshot();
    let signalId = '';
    const counts = await gained(async () => {
      signalId = await postSignal(client, auth, { name: unique('Checkout errors'), severity: 'HIGH' });
    });
    expect((await getSignal(client, auth, signalId)).incidentId).toEqual(expect.any(String));
    expect(counts).toMatchObject({ SignalsIngested: 1, IncidentsOpened: 1 });
    const lag = (await snapshot()).durations.CorrelationLag;
    expect(lag.count).toBe(before.durations.CorrelationLag.count + 1);
    expect(lag.maxMs).toBeGreaterThanOrEqual(0);

    // The sweep or a redelivery sends the signal again: it is no longer pending, so it is not measured again.
    const workspaceId = tenant.admin.user.businessId;
    await client.stack.ports.queue.send('correlation', [{ workspaceId, signalId }]);
    await worker.idle();
    expect((await snapshot()).durations.CorrelationLag.count).toBe(lag.count);
  });
});
