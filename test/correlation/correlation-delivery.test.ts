import { systemScope } from '#lib/identity/scope.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { handler as sweepHandler } from '#functions/correlation-sweep/index.ts';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import { listIncidentSignals } from '#lib/incidents/incident-signals.ts';
import { sweepPendingSignals } from '#lib/correlation/sweep.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import type { Ports } from '#lib/ports/ports.ts';
import type { Table } from '#lib/store/table.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  capturingQueue,
  getSignal,
  historyOf,
  listIncidents,
  postSignal,
  recordOf,
  runWorker,
  startCorrelationWorker,
  unique,
  worker,
  withRuntime,
} from './support.ts';
import { isCorrelationLane } from '#lib/signals/correlation-lane.ts';

describe('correlation delivery: duplicates, failures and lost messages', () => {
  let client: TestClient;
  let runtime: Ports;
  let poller: QueuePoller | undefined;
  beforeAll(async () => {
    client = await startTestStack();
    runtime = client.stack.ports;
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
  });
  afterAll(() => client.stack.stop());

  const workspace = (): Promise<SignedIn> => signUpBusiness(client, { businessName: unique('Delivery Co') });
  const workspaceId = (owner: SignedIn): string => owner.user.businessId ?? '';

  /** Posts signals whose correlation messages are kept back, and answers the ids and the messages. */
  const postHeldBack = async (
    owner: SignedIn,
    signals: Record<string, unknown>[],
  ): Promise<{ ids: string[]; messages: object[] }> => {
    const { queue, captured } = capturingQueue(runtime.queue);
    const ids = await withRuntime(runtime, { queue }, async () => {
      const posted: string[] = [];
      for (const fields of signals) posted.push(await postSignal(client, owner.auth, fields));
      return posted;
    });
    return { ids, messages: captured };
  };

  const linkEvents = async (owner: SignedIn, incidentId: string): Promise<string[]> =>
    (await historyOf(client, owner.auth, incidentId))
      .filter(({ event }) => event === 'SIGNAL_LINKED')
      .map(({ to }) => to);

  it('links a signal once when the same message is delivered twice, one after the other or at once', async () => {
    const owner = await workspace();
    const { ids, messages } = await postHeldBack(owner, [
      { severity: 'HIGH', serviceId: 'api' },
      { severity: 'HIGH', serviceId: 'web' },
    ]);
    const [sequential, concurrent] = messages;
    const record = recordOf(sequential ?? {});
    expect(await runWorker([record])).toEqual({ batchItemFailures: [] });
    expect(await runWorker([record])).toEqual({ batchItemFailures: [] });
    const twice = recordOf(concurrent ?? {});
    const answers = await Promise.all([runWorker([twice]), runWorker([{ ...twice, messageId: 'redelivered' }])]);
    expect(answers).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);

    const incidents = await listIncidents(client, owner.auth);
    expect(incidents).toHaveLength(2);
    for (const id of ids) {
      const { incidentId } = await getSignal(client, owner.auth, id);
      expect(await linkEvents(owner, incidentId)).toEqual([id]);
      const linked = await listIncidentSignals(systemScope(workspaceId(owner), runtime), incidentId);
      expect(linked.map((signal) => signal.id)).toEqual([id]);
    }
  });

  it('retries only the record that failed in a batch, and nothing is doubled', async () => {
    const owner = await workspace();
    const { ids, messages } = await postHeldBack(owner, [
      { severity: 'HIGH', serviceId: 'alpha' },
      { severity: 'HIGH', serviceId: 'beta' },
      { severity: 'HIGH', serviceId: 'gamma' },
    ]);
    const failing = ids[1];
    // The failing record stops after its incident and link were written, just before it leaves the pending index.
    let failures = 0;
    const send = runtime.table.doc.send.bind(runtime.table.doc) as (command: unknown) => Promise<unknown>;
    const table: Table = {
      name: runtime.table.name,
      doc: {
        send: (command: { constructor: { name: string }; input: Record<string, any> }) => {
          const markingCorrelated =
            command.input.UpdateExpression === 'REMOVE gsi3pk, gsi3sk' && command.input.Key?.sk === failing;
          if (markingCorrelated && failures === 0) {
            failures += 1;
            return Promise.reject(new Error('worker crashed'));
          }
          return send(command);
        },
      } as unknown as Table['doc'],
    };
    const seen: string[][] = [];
    poller = startCorrelationWorker(client, (event: SQSEvent, context) => {
      seen.push(event.Records.map((record) => JSON.parse(record.body).signalId));
      return worker(event, context);
    });
    await withRuntime(runtime, { table }, async () => {
      await runtime.queue.send('correlation', messages);
      await poller?.idle();
    });

    expect(failures).toBe(1);
    expect(seen.flat().sort()).toEqual([...ids, failing].sort());
    expect(seen.at(-1)).toEqual([failing]);
    const incidents = await listIncidents(client, owner.auth);
    expect(incidents).toHaveLength(3);
    for (const id of ids) {
      const { incidentId } = await getSignal(client, owner.auth, id);
      expect(await linkEvents(owner, incidentId)).toEqual([id]);
    }
  });

  it('sends a signal whose queue message was lost to the queue again once it is two minutes old', async () => {
    const owner = await workspace();
    const lost: Queue = {
      send: async (name, messages) => {
        if (isCorrelationLane(name)) throw new Error('queue unavailable');
        await runtime.queue.send(name, messages);
      },
    };
    const signalId = await withRuntime(runtime, { queue: lost }, () =>
      postSignal(client, owner.auth, { severity: 'HIGH', serviceId: 'lost' }),
    );
    poller = startCorrelationWorker(client);
    await poller.idle();
    expect((await getSignal(client, owner.auth, signalId)).incidentId).toBeNull();

    // Younger than two minutes: its message may still be on its way.
    expect(await sweepPendingSignals(systemAccountScope(runtime), new Date())).toMatchObject({ enqueued: 0 });

    const later = new Date(Date.now() + 3 * 60_000);
    await withRuntime(runtime, { clock: { now: () => later } }, () => sweepHandler());
    await poller.idle();
    const { incidentId } = await getSignal(client, owner.auth, signalId);
    expect(incidentId).toMatch(/^INC-/);
    expect(await linkEvents(owner, incidentId)).toEqual([signalId]);

    // Correlated, it is no longer pending: a later sweep sends nothing.
    expect(await sweepPendingSignals(systemAccountScope(runtime), later)).toMatchObject({ enqueued: 0 });
  });

  it('drops nothing and doubles nothing when a malformed message is mixed with good ones', async () => {
    const owner = await workspace();
    const { ids, messages } = await postHeldBack(owner, [{ severity: 'HIGH', serviceId: 'mixed' }]);
    const bad = recordOf({ workspaceId: workspaceId(owner) }, 'bad');
    const answer = await runWorker([bad, recordOf(messages[0] ?? {}, 'good')]);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
    expect((await getSignal(client, owner.auth, ids[0] ?? '')).incidentId).toMatch(/^INC-/);
    // A message for a signal that does not exist is done with: there is nothing to correlate.
    expect(
      await runWorker([recordOf({ workspaceId: workspaceId(owner), signalId: '01J0000000000000000000000Z' })]),
    ).toEqual({
      batchItemFailures: [],
    });
  });
});
