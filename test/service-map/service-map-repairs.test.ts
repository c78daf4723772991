import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameKeyOf } from '#lib/service-map/service.ts';
import { serviceMapRepository } from '#lib/service-map/service-map-repository.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const MAP = '/api/v1/service-map';
const GONE_ID = '01J0000000000000000000000Z';

/** Writes that meet another request, or what a crash between two writes left in the table. */
describe('service map under concurrent and interrupted writes', () => {
  let client: TestClient;
  let owner: SignedIn;
  const map = () => serviceMapRepository(client.stack.ports.table, owner.user.businessId ?? '');
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  const create = (name: string) => client.request('POST', MAP, { name }, owner.auth);

  beforeAll(async () => {
    client = await startTestStack();
    owner = await signUpBusiness(client, { businessName: 'Repairs Co' });
  });
  afterAll(() => client.stack.stop());

  it('keeps both of two simultaneous PATCHes of one service, the later one read again', async () => {
    const service = (await create('gamma')).body.data;
    const patch = (body: Record<string, unknown>) => client.request('PATCH', `${MAP}/${service.id}`, body, owner.auth);
    const replies = await Promise.all([
      patch({ description: 'Ledger' }),
      patch({ team: 'core' }),
      patch({ name: 'delta' }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    const stored = await client.request('GET', `${MAP}/${service.id}`, undefined, owner.auth);
    expect(stored.body.data).toMatchObject({ name: 'delta', description: 'Ledger', team: 'core' });
    expect((await create('gamma')).status).toBe(201);
  });

  it('takes over a name claimed by a create that never wrote its service, once the claim is a minute old', async () => {
    await map().claimName(nameKeyOf('orders'), { serviceId: GONE_ID, claimedAt: minutesAgo(2) });
    expect((await create('Orders')).status).toBe(201);
    await map().claimName(nameKeyOf('carts'), { serviceId: GONE_ID, claimedAt: minutesAgo(0) });
    expect((await create('carts')).status).toBe(409);
  });

  it('takes over the old name a rename did not release', async () => {
    const renamed = (await create('alpha')).body.data;
    await map().claimName(nameKeyOf('legacy'), { serviceId: renamed.id, claimedAt: minutesAgo(5) });
    expect((await create('legacy')).status).toBe(201);
    expect((await client.request('PATCH', `${MAP}/${renamed.id}`, { name: 'beta' }, owner.auth)).status).toBe(200);
    expect((await create('alpha')).status).toBe(201);
  });

  it('ignores an edge whose service is gone, and the delete of its other end removes it', async () => {
    const kept = (await create('kept')).body.data;
    await map().insertDependency({
      id: `${GONE_ID}.${kept.id}`,
      sourceId: GONE_ID,
      targetId: kept.id,
      createdAt: minutesAgo(1),
    });
    const topology = await client.request('GET', `${MAP}/topology`, undefined, owner.auth);
    expect(topology.body.data.edges).toEqual([]);
    const impact = await client.request('GET', `${MAP}/${kept.id}/downstream-impact`, undefined, owner.auth);
    expect(impact.body.data.impactedServices).toEqual([]);
    expect((await client.request('DELETE', `${MAP}/${kept.id}`, undefined, owner.auth)).status).toBe(200);
    expect((await map().readMap()).dependencies).toEqual([]);
  });
});
