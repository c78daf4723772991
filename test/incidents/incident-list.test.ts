import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { at, numberOf } from './support.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const ids = (reply: { body: { data: { id: string }[] } }): string[] => reply.body.data.map((incident) => incident.id);

describe('incident ids and lists', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
  });
  afterAll(() => client.stack.stop());

  const list = (query = '') => client.request('GET', `${INCIDENTS}${query}`, undefined, admin.auth);

  it('gives 20 concurrent creates 20 distinct, consecutive numbers', async () => {
    const next = numberOf(
      (await client.request('GET', `${INCIDENTS}/generate-id`, undefined, admin.auth)).body.data.id,
    );
    const created = await Promise.all(
      Array.from({ length: 20 }, (_unused, index) =>
        createIncident(client, admin.auth, { summary: `Concurrent ${index}` }),
      ),
    );
    const numbers = created.map((incident) => numberOf(incident.id)).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(20);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_unused, index) => next + index));
  });

  it('lists newest first and pages with meta', async () => {
    const fresh = await signUpBusiness(client);
    const created: string[] = [];
    for (let index = 0; index < 25; index += 1) {
      created.push((await createIncident(client, fresh.auth, { summary: `Incident ${index}` })).id);
    }
    const page = (query: string) => client.request('GET', `${INCIDENTS}${query}`, undefined, fresh.auth);
    const third = await page('?limit=10&page=3');
    expect(third.status).toBe(200);
    expect(third.body.meta).toEqual({ total: 25, page: 3, limit: 10, totalPages: 3 });
    expect(ids(third)).toEqual(created.slice(0, 5).reverse());
    const first = await page('?limit=10');
    expect(ids(first)).toEqual(created.slice(15).reverse());
    const all = await page('');
    expect(all.body.meta).toEqual({ total: 25, page: 1, limit: 20, totalPages: 2 });
    expect(ids(all)).toEqual(created.slice(5).reverse());
    const beyond = await page('?limit=10&page=4');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toEqual({ total: 25, page: 4, limit: 10, totalPages: 3 });
  });

  it('filters by status, priority and environment', async () => {
    const fresh = await signUpBusiness(client);
    const make = (fields: Record<string, unknown>) => createIncident(client, fresh.auth, fields);
    const a = await make({ priority: 'LOW', environment: 'Production' });
    const b = await make({ priority: 'CRITICAL', status: 'INVESTIGATION', environment: 'production ' });
    const c = await make({ priority: 'CRITICAL', environment: 'staging' });
    const d = await make({ priority: 'CRITICAL', status: 'INVESTIGATION' });
    const page = (query: string) => client.request('GET', `${INCIDENTS}${query}`, undefined, fresh.auth);

    expect(ids(await page('?status=INVESTIGATION'))).toEqual([d.id, b.id]);
    expect(ids(await page('?priority=CRITICAL'))).toEqual([d.id, c.id, b.id]);
    expect(ids(await page('?status=OPEN&priority=CRITICAL'))).toEqual([c.id]);
    expect(ids(await page('?environment=PRODUCTION'))).toEqual([b.id, a.id]);
    const combined = await page('?status=INVESTIGATION&priority=CRITICAL&environment=production');
    expect(ids(combined)).toEqual([b.id]);
    expect(combined.body.meta.total).toBe(1);

    await client.request('PUT', `${INCIDENTS}/${a.id}`, { status: 'MITIGATED', environment: 'staging' }, fresh.auth);
    expect(ids(await page('?status=MITIGATED&environment=staging'))).toEqual([a.id]);
    expect(ids(await page('?environment=production'))).toEqual([b.id]);

    // Open (neither RESOLVED nor CLOSED), as the console lists by default, or done; totals to match.
    await client.request('POST', `${INCIDENTS}/resolve/${c.id}`, {}, fresh.auth);
    await client.request('PUT', `${INCIDENTS}/${d.id}`, { status: 'CLOSED' }, fresh.auth);
    const open = await page('?open=true');
    expect([ids(open), open.body.meta.total]).toEqual([[b.id, a.id], 2]);
    const done = await page('?open=false');
    expect([ids(done), done.body.meta.total]).toEqual([[d.id, c.id], 2]);
    const openCritical = await page('?open=true&priority=CRITICAL');
    expect([ids(openCritical), openCritical.body.meta.total]).toEqual([[b.id], 1]);
    expect((await page('?open=true&status=CLOSED')).body.meta.total).toBe(0);
  });

  it('filters by creation date range, dates meaning whole UTC days', async () => {
    const fresh = await signUpBusiness(client);
    const createOn = (iso: string, fields: Record<string, unknown> = {}) =>
      at(client, iso, () => createIncident(client, fresh.auth, fields));
    const may1 = await createOn('2024-05-01T08:00:00.000Z');
    const may2 = await createOn('2024-05-02T23:30:00.000Z', { status: 'ACKNOWLEDGED' });
    const may3 = await createOn('2024-05-03T00:00:00.000Z');
    expect(may1.id).toBe('INC-20240501-0001');
    const page = (query: string) => client.request('GET', `${INCIDENTS}${query}`, undefined, fresh.auth);

    expect(ids(await page('?from=2024-05-02&to=2024-05-02'))).toEqual([may2.id]);
    expect(ids(await page('?from=2024-05-02'))).toEqual([may3.id, may2.id]);
    expect(ids(await page('?to=2024-05-02'))).toEqual([may2.id, may1.id]);
    expect(ids(await page('?from=2024-05-01T09:00:00Z&to=2024-05-03T00:00:00Z'))).toEqual([may3.id, may2.id]);
    // 01:45 at +02:00 is 23:45 UTC on May 2nd: after may2, before may3.
    expect(ids(await page('?from=2024-05-03T01:45:00%2B02:00'))).toEqual([may3.id]);
    expect(ids(await page('?status=ACKNOWLEDGED&from=2024-05-01&to=2024-05-31'))).toEqual([may2.id]);
    expect((await page('?priority=HIGH&to=2024-05-01')).body.meta.total).toBe(1);
  });

  it('refuses invalid filters and page sizes with one message each', async () => {
    const reply = await list('?status=open&open=yes&priority=P1&from=yesterday&to=2024-13-01&limit=101&page=0');
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual([
      'from',
      'limit',
      'open',
      'page',
      'priority',
      'status',
      'to',
    ]);
    const reversed = await list('?from=2024-05-02&to=2024-05-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors).toEqual(['from: must not be after to']);
  });
});
