import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { createTenant, expectAccepted, postRaw, type Tenant } from '../ingestion-routes/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/**
 * What one delivery costs the table, counted at the SDK as `npm run bench` counts it: every command the
 * ingestion request sends, reads included, once the gateway's authorizer holds the API key (issue 11).
 */
describe('store operations of one ingested event', () => {
  let client: TestClient;
  let tenant: Tenant;
  const operations: string[] = [];
  const pagerDuty = loadFixture('paging', 'triggered_v3.json');

  const deliver = (deliveryId: string, incidentId: string) =>
    postRaw(
      client,
      'paging',
      JSON.stringify(withFields(pagerDuty.body, { 'event.data.id': incidentId })),
      { ...pagerDuty.headers, 'x-webhook-id': deliveryId },
      { headers: tenant.keyHeaders },
    );

  /** The commands a delivery sent, as `<command> <partition>` with the workspace id left out. */
  const counted = async (deliveryId: string, incidentId: string) => {
    operations.length = 0;
    const data = expectAccepted(await deliver(deliveryId, incidentId));
    return { data, operations: [...operations] };
  };

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
    client.stack.ports.table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { pk?: string }; Item?: { pk?: string } };
        const pk = String((input.Key ?? input.Item)?.pk ?? '');
        operations.push(`${context.commandName} ${pk.replace(/^WS#[^#]+#/, '')}`);
        return next(args);
      },
      { step: 'initialize', name: 'operationBudget' },
    );
    // The authorizer checks the key once; later requests of this instance find it cached.
    expectAccepted(await deliver(randomUUID(), `warm-${randomUUID()}`));
  });
  afterAll(() => client.stack.stop());

  it('stores a new signal in at most 3: the fingerprint claim, the signal, its counters', async () => {
    const { data, operations: sent } = await counted(randomUUID(), `new-${randomUUID()}`);
    expect(data.deduplicated).toBe(false);
    expect(sent).toEqual(['PutItemCommand FP', 'PutItemCommand SIG', 'UpdateItemCommand COUNTER']);
  });

  it('merges a duplicate in 1: one conditional update of the open signal', async () => {
    const incidentId = `dup-${randomUUID()}`;
    const first = await counted(randomUUID(), incidentId);
    const { data, operations: sent } = await counted(randomUUID(), incidentId);
    expect(data).toMatchObject({ signalId: first.data.signalId, deduplicated: true });
    expect(sent).toEqual(['UpdateItemCommand SIG']);
  });

  it('answers a retried delivery in 2, counting nothing: the refused merge and the read that tells why', async () => {
    const deliveryId = randomUUID();
    const incidentId = `retry-${randomUUID()}`;
    const first = await counted(deliveryId, incidentId);
    const { data, operations: sent } = await counted(deliveryId, incidentId);
    expect(data).toMatchObject({ signalId: first.data.signalId, deduplicated: true });
    expect(sent).toEqual(['UpdateItemCommand SIG', 'GetItemCommand SIG']);
  });
});
