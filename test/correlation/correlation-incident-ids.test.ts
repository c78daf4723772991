import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ports } from '#lib/ports/ports.ts';
import type { Table } from '#lib/store/table.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { setDayCounter } from '../incidents/support.ts';
import {
  capturingQueue,
  getSignal,
  listIncidents,
  postSignal,
  recordOf,
  runWorker,
  unique,
  withRuntime,
} from './support.ts';

const NOON = new Date('2025-03-14T12:00:00.000Z');
const DAY = '20250314';

describe('correlation and incident ids', () => {
  let client: TestClient;
  let runtime: Ports;
  beforeAll(async () => {
    client = await startTestStack();
    runtime = client.stack.ports;
  });
  afterAll(() => client.stack.stop());

  const workspace = (): Promise<SignedIn> => signUpBusiness(client, { businessName: unique('Numbering Co') });
  const clock = { now: () => NOON };

  /** Posts a HIGH signal at NOON, which the default rule opens an incident for, and answers its id and queue record. */
  const postHigh = async (owner: SignedIn, serviceId: string) => {
    const { queue, captured } = capturingQueue(runtime.queue);
    const signalId = await withRuntime(runtime, { queue, clock }, () =>
      postSignal(client, owner.auth, { severity: 'HIGH', serviceId }),
    );
    const [message] = captured;
    return { signalId, record: recordOf(message ?? {}) };
  };

  it('opens an incident from signals when the day has already had 9,999 incidents', async () => {
    const owner = await workspace();
    await setDayCounter(client, owner.user.businessId ?? '', DAY, 9999);
    const { signalId, record } = await postHigh(owner, 'checkout');

    expect(await withRuntime(runtime, { clock }, () => runWorker([record]))).toEqual({ batchItemFailures: [] });

    const { incidentId } = await getSignal(client, owner.auth, signalId);
    expect(incidentId).toBe(`INC-${DAY}-10000`);
    expect((await listIncidents(client, owner.auth)).map(({ id }) => id)).toEqual([incidentId]);
  });

  it('opens the incident on the next delivery when allocating its id failed, without waiting for the claim to go stale', async () => {
    const owner = await workspace();
    const { signalId, record } = await postHigh(owner, 'payments');
    let failures = 0;
    const send = runtime.table.doc.send.bind(runtime.table.doc) as (command: unknown) => Promise<unknown>;
    const throttled: Table = {
      name: runtime.table.name,
      doc: {
        send: (command: { input: Record<string, any> }) => {
          if (String(command.input.Key?.pk).endsWith('#INCSEQ') && command.input.UpdateExpression && failures === 0) {
            failures += 1;
            return Promise.reject(new Error('ProvisionedThroughputExceededException'));
          }
          return send(command);
        },
      } as unknown as Table['doc'],
    };

    await withRuntime(runtime, { table: throttled, clock }, async () => {
      expect(await runWorker([record])).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
      expect(failures).toBe(1);
      // Redelivered well within the minute a claim of a stopped worker is respected.
      expect(await runWorker([record])).toEqual({ batchItemFailures: [] });
    });

    const { incidentId } = await getSignal(client, owner.auth, signalId);
    expect(incidentId).toBe(`INC-${DAY}-0001`);
    expect((await listIncidents(client, owner.auth)).map(({ id }) => id)).toEqual([incidentId]);
  });
});
