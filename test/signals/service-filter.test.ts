import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, postSignal } from './support.ts';

describe('GET /signals?serviceId=', () => {
  let client: TestClient;
  let admin: SignedIn;
  const queries: { index?: string; filter?: string; count: boolean }[] = [];
  const ids: Record<string, string> = {};

  let counter = 0;
  const fresh = (overrides: Record<string, unknown>) => ({
    name: `Disk full ${(counter += 1)}`,
    source: 'prometheus',
    severity: 'HIGH',
    ...overrides,
  });
  const list = async (query: string, auth = admin.auth) => {
    queries.length = 0;
    const reply = await client.request('GET', `${SIGNALS}?${query}`, undefined, auth);
    expect(reply.status, reply.text).toBe(200);
    return { ids: reply.body.data.map((signal: { id: string }) => signal.id), total: reply.body.total };
  };

  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    ids.checkoutHigh = (await postSignal(client, admin.auth, fresh({ serviceId: 'Checkout' }))).id;
    ids.checkoutLow = (await postSignal(client, admin.auth, fresh({ serviceId: 'checkout', severity: 'LOW' }))).id;
    ids.checkoutOther = (
      await postSignal(client, admin.auth, fresh({ serviceId: 'checkout', source: 'datadog', severity: 'LOW' }))
    ).id;
    ids.billing = (await postSignal(client, admin.auth, fresh({ serviceId: 'billing' }))).id;
    ids.none = (await postSignal(client, admin.auth, fresh({}))).id;
    client.stack.ports.table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'QueryCommand') {
          const input = args.input as { IndexName?: string; FilterExpression?: string; Select?: string };
          queries.push({ index: input.IndexName, filter: input.FilterExpression, count: input.Select === 'COUNT' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'serviceQueries' },
    );
  });
  afterAll(() => client.stack.stop());

  it("lists a service's signals, newest first, from its own index partition, with the counter's total", async () => {
    const { ids: listed, total } = await list('serviceId=checkout');
    expect(listed).toEqual([ids.checkoutOther, ids.checkoutLow, ids.checkoutHigh]);
    expect(total).toBe(3);
    expect(queries.every((query) => query.index === 'gsi5' && !query.filter && !query.count)).toBe(true);
    expect(queries.length).toBeGreaterThan(0);
    expect(await list('serviceId=%20CHECKOUT%20')).toMatchObject({ total: 3 });
    expect(await list('serviceId=billing')).toEqual({ ids: [ids.billing], total: 1 });
    expect(await list('serviceId=nothing-here')).toEqual({ ids: [], total: 0 });
  });

  it('combines with status from the counter, and with severity or source by counting the partition', async () => {
    const resolved = await client.request('PATCH', `${SIGNALS}/${ids.checkoutLow}/resolve`, {}, admin.auth);
    expect(resolved.status).toBe(200);
    expect(await list('serviceId=checkout&status=OPEN')).toEqual({
      ids: [ids.checkoutOther, ids.checkoutHigh],
      total: 2,
    });
    expect(queries.some((query) => query.count)).toBe(false);
    expect(await list('serviceId=checkout&status=RESOLVED')).toEqual({ ids: [ids.checkoutLow], total: 1 });
    expect(await list('serviceId=checkout&severity=LOW')).toEqual({
      ids: [ids.checkoutOther, ids.checkoutLow],
      total: 2,
    });
    expect(queries.every((query) => query.index === 'gsi5')).toBe(true);
    expect(await list('serviceId=checkout&source=datadog&status=OPEN')).toEqual({ ids: [ids.checkoutOther], total: 1 });
    expect(await list('serviceId=checkout&limit=1&page=2')).toEqual({ ids: [ids.checkoutLow], total: 3 });
  });

  it('refuses an empty serviceId with a 400 naming it', async () => {
    const reply = await client.request('GET', `${SIGNALS}?serviceId=%20`, undefined, admin.auth);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([expect.stringMatching(/^serviceId: /)]);
  });

  it("never lists another workspace's signals, and is open to every role and incidents:read keys", async () => {
    const other = await signUpBusiness(client, { businessName: 'Other Co' });
    expect(await list('serviceId=checkout', other.auth)).toEqual({ ids: [], total: 0 });
    const viewer = await joinAs(client, admin, 'VIEWER');
    expect(await list('serviceId=billing', viewer.auth)).toMatchObject({ total: 1 });
    expect(await list('serviceId=billing', await apiKeyHeaders(client, admin, ['incidents:read']))).toMatchObject({
      total: 1,
    });
    const wrongScope = await apiKeyHeaders(client, admin, ['analytics:read']);
    expect((await client.request('GET', `${SIGNALS}?serviceId=billing`, undefined, wrongScope)).status).toBe(403);
  });
});
