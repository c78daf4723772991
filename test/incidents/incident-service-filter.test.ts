import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountCounters } from '#lib/counters/recount-counters.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { at } from './support.ts';

const ids = (reply: { body: { data: { id: string }[] } }): string[] => reply.body.data.map((incident) => incident.id);

describe('the incident list filtered by service area', () => {
  let client: TestClient;
  let owner: SignedIn;
  let other: SignedIn;
  /** The incidents of `owner`, oldest first: payments ones at even places, with their fields. */
  const payments: string[] = [];
  beforeAll(async () => {
    client = await startTestStack();
    [owner, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client)]);
    for (let index = 0; index < 12; index += 1) {
      const serviceArea = index % 2 === 0 ? (index % 4 === 0 ? 'Payments' : ' payments ') : 'search';
      const created = await createIncident(client, owner.auth, {
        summary: `Incident ${index}`,
        serviceArea,
        priority: index < 6 ? 'LOW' : 'CRITICAL',
        ...(index % 3 === 0 && { environment: 'production' }),
      });
      if (index % 2 === 0) payments.push(created.id);
    }
    // Another workspace's incidents of the same service area are never in the owner's list.
    await createIncident(client, other.auth, { serviceArea: 'payments' });
  });
  afterAll(() => client.stack.stop());

  const list = (query: string, who = owner) => client.request('GET', `${INCIDENTS}${query}`, undefined, who.auth);

  it('matches the whole value in any case, surrounding spaces ignored, and pages with the right total', async () => {
    const newestFirst = [...payments].reverse();
    const all = await list('?serviceArea=%20PAYMENTS%20');
    expect(all.status, all.text).toBe(200);
    expect(ids(all)).toEqual(newestFirst);
    expect(all.body.meta).toEqual({ total: 6, page: 1, limit: 20, totalPages: 1 });

    const second = await list('?serviceArea=payments&limit=4&page=2');
    expect(ids(second)).toEqual(newestFirst.slice(4));
    expect(second.body.meta).toEqual({ total: 6, page: 2, limit: 4, totalPages: 2 });

    // A cursor walks the same matches without skipping or repeating one.
    const first = await list('?serviceArea=payments&limit=4&cursor=');
    expect(ids(first)).toEqual(newestFirst.slice(0, 4));
    const next = await list(`?serviceArea=payments&limit=4&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(ids(next)).toEqual(newestFirst.slice(4));
    expect(next.body.meta.nextCursor).toBeNull();

    for (const partial of ['pay', 'payments-eu', 'search%20payments']) {
      const none = await list(`?serviceArea=${partial}`);
      expect(ids(none), partial).toEqual([]);
      expect(none.body.meta.total, partial).toBe(0);
    }
  });

  it('combines with status, priority, environment and dates, the total staying right', async () => {
    const critical = await list('?serviceArea=payments&priority=CRITICAL&limit=2');
    expect(ids(critical)).toEqual([payments[5], payments[4]]);
    expect(critical.body.meta).toMatchObject({ total: 3, totalPages: 2 });
    const production = await list('?serviceArea=payments&environment=production');
    expect(ids(production)).toEqual([payments[3], payments[0]]);
    expect(production.body.meta.total).toBe(2);

    await client.request('PUT', `${INCIDENTS}/${payments[1]}`, { status: 'ACKNOWLEDGED' }, owner.auth);
    const acknowledged = await list('?serviceArea=Payments&status=ACKNOWLEDGED');
    expect(ids(acknowledged)).toEqual([payments[1]]);
    expect(acknowledged.body.meta.total).toBe(1);
    expect((await list('?serviceArea=payments&status=OPEN')).body.meta.total).toBe(5);

    const today = new Date().toISOString().slice(0, 10);
    const dated = await list(`?serviceArea=payments&from=${today}&to=${today}&limit=5`);
    expect(dated.body.meta.total).toBe(6);
    expect((await list('?serviceArea=payments&to=2020-01-01')).body.meta.total).toBe(0);
  });

  it('follows a changed or cleared service area, and keeps the totals through a recount', async () => {
    const moved = await createIncident(client, owner.auth, { serviceArea: 'search' });
    await client.request('PUT', `${INCIDENTS}/${moved.id}`, { serviceArea: 'Payments' }, owner.auth);
    expect(ids(await list('?serviceArea=payments&limit=1'))).toEqual([moved.id]);
    expect((await list('?serviceArea=search')).body.meta.total).toBe(6);
    expect((await list('?serviceArea=payments')).body.meta.total).toBe(7);

    await client.request('PUT', `${INCIDENTS}/${moved.id}`, { serviceArea: null }, owner.auth);
    expect(ids(await list('?serviceArea=payments'))).not.toContain(moved.id);
    expect((await list('?serviceArea=payments')).body.meta.total).toBe(6);

    const workspaceId = owner.user.businessId ?? '';
    await addToCounters(
      client.stack.ports.table,
      { pk: `WS#${workspaceId}#COUNTER`, sk: 'INCIDENTS' },
      {
        'service#payments': 4,
      },
    );
    expect((await list('?serviceArea=payments')).body.meta.total).toBe(10);
    await recountCounters(systemAccountScope(client.stack.ports));
    expect((await list('?serviceArea=payments')).body.meta.total).toBe(6);
    expect((await list('?serviceArea=payments&status=ACKNOWLEDGED')).body.meta.total).toBe(1);
  });

  it("keeps each workspace's service areas to itself", async () => {
    const theirs = await list('?serviceArea=payments', other);
    expect(theirs.body.meta.total).toBe(1);
    expect(theirs.body.data.map((incident: { summary: string }) => incident.summary)).toEqual([
      'Checkout requests failing',
    ]);
    expect(ids(await list('?serviceArea=search', other))).toEqual([]);
  });

  it('refuses an empty or over-long service area with a field message', async () => {
    const empty = await list('?serviceArea=%20%20');
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatch(/^serviceArea: /);
    const long = await list(`?serviceArea=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatch(/^serviceArea: /);
  });

  it('finds an incident of an earlier day by its service area within a date range', async () => {
    const old = await at(client, '2024-05-02T10:00:00.000Z', () =>
      createIncident(client, owner.auth, { serviceArea: 'ledger' }),
    );
    expect(ids(await list('?serviceArea=ledger&from=2024-05-02&to=2024-05-02'))).toEqual([old.id]);
    expect(ids(await list('?serviceArea=ledger&from=2024-05-03'))).toEqual([]);
  });
});
