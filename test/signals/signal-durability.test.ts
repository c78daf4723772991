import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { handler as ingestionWorker } from '#functions/ingestion-worker/index.ts';
import { startQueuePoller, type QueuePoller } from '#infra/local/queue-poller.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { storeSignalEvent } from '#lib/signals/store-signal-event.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  SIGNALS,
  drainQueue,
  getSignal,
  queueDepth,
  triggerEvent,
  withThrottledStore,
  writesSignalStore,
} from './support.ts';
import { CORRELATION_LANES, isCorrelationLane } from '#lib/signals/correlation-lane.ts';

describe('signal store durability', () => {
  let client: TestClient;
  let admin: SignedIn;
  let workspaceId: string;
  let poller: QueuePoller | undefined;

  let counter = 0;
  const unique = (label: string): string => `${label} ${(counter += 1)}`;

  const runWorker = async (): Promise<void> => {
    poller = startQueuePoller({ sqs: client.stack.queues, queue: 'ingestion', handler: ingestionWorker });
    await poller.idle();
    await poller.stop();
    poller = undefined;
  };

  /** Sends message bodies to the ingestion queue as SQS would redeliver them. */
  const redeliver = async (...bodies: string[]): Promise<void> => {
    for (const body of bodies) {
      await client.stack.queues.client.send(
        new SendMessageCommand({ QueueUrl: client.stack.queues.queueUrl('ingestion'), MessageBody: body }),
      );
    }
  };

  const signalCount = async (query: string): Promise<number> =>
    (await client.request('GET', `${SIGNALS}?${query}`, undefined, admin.auth)).body.total;

  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    workspaceId = admin.user.businessId!;
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
  });
  afterAll(() => client.stack.stop());

  it('queues a posted signal the table refuses, and the worker stores it exactly once under the id answered', async () => {
    const body = { name: unique('Throttled'), source: 'throttle-http', severity: 'HIGH' };
    const reply = await withThrottledStore(client.stack.ports, writesSignalStore, () =>
      client.request('POST', SIGNALS, body, admin.auth),
    );
    expect(reply.status, reply.text).toBe(202);
    expect(reply.body.data).toEqual({
      id: expect.any(String),
      status: 'OPEN',
      createdAt: expect.any(String),
      deduplicated: false,
    });
    const { id } = reply.body.data;
    expect((await client.request('GET', `${SIGNALS}/${id}`, undefined, admin.auth)).status).toBe(404);
    expect(await queueDepth(client.stack.queues, 'ingestion')).toBe(1);

    const [message] = await drainQueue(client.stack.queues, 'ingestion');
    // The message as SQS delivers it, then redelivered twice (at-least-once delivery).
    await redeliver(message!, message!, message!);
    await runWorker();
    const signal = await getSignal(client, admin.auth, id);
    expect(signal).toMatchObject({
      id,
      name: body.name,
      status: 'OPEN',
      occurrences: 1,
      firstSeenAt: reply.body.data.createdAt,
    });
    expect(await signalCount('source=throttle-http')).toBe(1);

    // A redelivery long after the event was stored still finds it.
    await redeliver(message!);
    await runWorker();
    expect((await getSignal(client, admin.auth, id)).occurrences).toBe(1);
    const stats = (await client.request('GET', `${SIGNALS}/stats`, undefined, admin.auth)).body.data;
    expect(stats.topSources).toContainEqual({ source: 'throttle-http', count: 1 });
  });

  it('queues a direct store the table refuses after the delivery claim, and the worker finishes that delivery', async () => {
    const event = triggerEvent({ name: unique('Half stored'), source: 'throttle-direct' }, unique('half-fp'));
    const delivery = { sender: 'codehost-a', id: unique('delivery') };
    // The delivery claim goes through, the fingerprint claim is refused.
    const claimOrSignal = (command: { input: Record<string, any> }) =>
      writesSignalStore(command) && !String((command.input.Item ?? command.input.Key)?.pk).endsWith('#DELIVERY');
    const queued = await withThrottledStore(client.stack.ports, claimOrSignal, (runtime) =>
      storeSignalEvent(systemScope(workspaceId, runtime), { event, delivery }),
    );
    expect(queued).toEqual({ signalId: expect.any(String), deduplicated: false, resolved: false, queued: true });

    await runWorker();
    const stored = await getSignal(client, admin.auth, queued.signalId);
    expect(stored).toMatchObject({ occurrences: 1, source: 'throttle-direct' });
    // The worker marked the delivery DONE: a sender retry is a duplicate, not a second occurrence.
    const retry = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event, delivery });
    expect(retry).toEqual({ signalId: queued.signalId, deduplicated: true, resolved: false, queued: false });
    expect((await getSignal(client, admin.auth, queued.signalId)).occurrences).toBe(1);
  });

  it('merges a queued event into the open signal written meanwhile', async () => {
    const event = triggerEvent({ name: unique('Merge later'), source: 'throttle-merge' }, unique('merge-fp'));
    const queued = await withThrottledStore(client.stack.ports, writesSignalStore, (runtime) =>
      storeSignalEvent(systemScope(workspaceId, runtime), { event }),
    );
    expect(queued.queued).toBe(true);
    const direct = await storeSignalEvent(systemScope(workspaceId, client.stack.ports), { event });
    expect(direct.queued).toBe(false);
    await runWorker();
    expect((await getSignal(client, admin.auth, direct.signalId)).occurrences).toBe(2);
    expect(await signalCount('source=throttle-merge')).toBe(1);
  });

  it('throws when the ingestion queue refuses the event too, so the sender gets a 5xx and retries', async () => {
    const failingQueue = (runtime: Ports): Ports => ({
      ...runtime,
      queue: { send: () => Promise.reject(new Error('queue unavailable')) },
    });
    const event = triggerEvent({ name: unique('Lost?'), source: 'throttle-both' }, unique('both-fp'));
    await expect(
      withThrottledStore(client.stack.ports, writesSignalStore, (runtime) =>
        storeSignalEvent(systemScope(workspaceId, failingQueue(runtime)), { event }),
      ),
    ).rejects.toThrow('queue unavailable');
    expect(await signalCount('source=throttle-both')).toBe(0);
  });

  it('keeps the signal stored and pending correlation when the correlation queue refuses it', async () => {
    const runtime: Ports = {
      ...client.stack.ports,
      queue: {
        send: (queue, messages) =>
          isCorrelationLane(queue)
            ? Promise.reject(new Error('correlation queue down'))
            : client.stack.ports.queue.send(queue, messages),
      },
    };
    for (const lane of CORRELATION_LANES) await drainQueue(client.stack.queues, lane);
    const stored = await storeSignalEvent(systemScope(workspaceId, runtime), {
      event: triggerEvent({ name: unique('Uncorrelated') }, unique('pending-fp')),
    });
    expect(stored).toMatchObject({ deduplicated: false, queued: false });
    expect((await getSignal(client, admin.auth, stored.signalId)).status).toBe('OPEN');
    const { Item } = await client.stack.ports.table.doc.send(
      new GetCommand({
        TableName: client.stack.ports.table.name,
        Key: { pk: `WS#${workspaceId}#SIG`, sk: stored.signalId },
      }),
    );
    expect(Item).toMatchObject({ gsi3pk: `WS#${workspaceId}#SIG#PENDING`, gsi3sk: stored.signalId });
    for (const lane of CORRELATION_LANES) expect(await queueDepth(client.stack.queues, lane)).toBe(0);
  });

  it('does not queue an event whose signal was already written when a later step is refused', async () => {
    const event = triggerEvent({ name: unique('Counted late'), source: 'throttle-after' }, unique('after-fp'));
    const countersOnly = (command: { input: Record<string, any> }) =>
      String(command.input.Key?.pk ?? '').endsWith('#COUNTER');
    const stored = await withThrottledStore(client.stack.ports, countersOnly, (runtime) =>
      storeSignalEvent(systemScope(workspaceId, runtime), { event }),
    );
    expect(stored).toMatchObject({ deduplicated: false, queued: false });
    expect(await queueDepth(client.stack.queues, 'ingestion')).toBe(0);
    expect((await getSignal(client, admin.auth, stored.signalId)).occurrences).toBe(1);
  });

  it('creates one signal when concurrent stores race a slow signal write', async () => {
    // Each signal Put waits, so the other stores find the claim before its signal exists.
    const slowSignalWrites: Ports = {
      ...client.stack.ports,
      table: {
        name: client.stack.ports.table.name,
        doc: {
          send: async (command: { constructor: { name: string }; input: Record<string, any> }, ...rest: unknown[]) => {
            if (command.constructor.name === 'PutCommand' && String(command.input.Item?.pk).endsWith('#SIG')) {
              await new Promise((resolve) => setTimeout(resolve, 150));
            }
            return (client.stack.ports.table.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
          },
        } as unknown as DynamoDBDocumentClient,
      },
    };
    const event = triggerEvent({ name: unique('Slow'), source: 'slow-writes' }, unique('slow-fp'));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => storeSignalEvent(systemScope(workspaceId, slowSignalWrites), { event })),
    );
    expect(new Set(results.map((result) => result.signalId)).size).toBe(1);
    expect((await getSignal(client, admin.auth, results[0]!.signalId)).occurrences).toBe(20);
    expect(await signalCount('source=slow-writes')).toBe(1);
  });

  it('reports a message it cannot read as a batch item failure, and stores the rest of the batch', async () => {
    const event = triggerEvent({ name: unique('Batch'), source: 'worker-batch' }, unique('batch-fp'));
    const signalId = client.stack.ports.ids.sortable();
    const good = JSON.stringify({ workspaceId, signalId, receivedAt: new Date().toISOString(), event });
    const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];
    const response = await ingestionWorker({ Records: [record('poison', '{"not":"an event"}'), record('good', good)] });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'poison' }] });
    expect(await getSignal(client, admin.auth, signalId)).toMatchObject({ occurrences: 1, source: 'worker-batch' });
  });
});
