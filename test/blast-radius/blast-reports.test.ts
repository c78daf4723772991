import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { recountCounters } from '#lib/counters/recount-counters.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { BLAST, type Report, calculate, createService, dependOn } from './support.ts';

describe('blast-radius reports and risk summary', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  const reports: Report[] = [];
  let db: { id: string };
  let api: { id: string };

  const list = async (query = '', as: SignedIn = admin) => {
    const reply = await client.request('GET', `${BLAST}${query}`, undefined, as.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { data: Report[]; page: number; total: number; nextCursor?: string | null };
  };
  const idsOf = (found: Report[]) => found.map((report) => report.reportId);
  const newestFirst = (keep: (report: Report) => boolean) => idsOf(reports.filter(keep).reverse());

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([
      signUpBusiness(client, { businessName: 'Reports Co' }),
      signUpBusiness(client, { businessName: 'Elsewhere' }),
    ]);
    viewer = await joinAs(client, admin, 'VIEWER');
    db = await createService(client, admin, { name: 'db' });
    api = await createService(client, admin, { name: 'api' });
    const web = await createService(client, admin, { name: 'web' });
    await dependOn(client, admin, api.id, db.id);
    await dependOn(client, admin, web.id, api.id);
    for (const body of [
      { serviceId: db.id, environment: 'Production' },
      { serviceId: db.id },
      { serviceId: api.id, environment: 'production ' },
      { serviceId: api.id, environment: 'staging' },
      { serviceId: web.id, depth: 10 },
    ]) {
      reports.push(await calculate(client, admin.auth, body));
    }
  });
  afterAll(() => client.stack.stop());

  it('lists every report newest first with page and total beside data', async () => {
    const body = await list();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'page', 'success', 'total']);
    expect(body).toMatchObject({ page: 1, total: 5 });
    expect(idsOf(body.data)).toEqual(newestFirst(() => true));
    const second = await list('?limit=2&page=2');
    expect(idsOf(second.data)).toEqual(newestFirst(() => true).slice(2, 4));
    expect(second.total).toBe(5);
  });

  it('filters by service, by environment (trimmed, without case) and by both, each with its total', async () => {
    const byService = await list(`?serviceId=${db.id}`);
    expect(idsOf(byService.data)).toEqual(newestFirst((report) => report.serviceId === db.id));
    expect(byService.total).toBe(2);
    const byEnvironment = await list('?environment=PRODUCTION');
    expect(idsOf(byEnvironment.data)).toEqual(
      newestFirst((report) => report.environment?.trim().toLowerCase() === 'production'),
    );
    expect(byEnvironment.total).toBe(2);
    const both = await list(`?serviceId=${api.id}&environment=staging`);
    expect(idsOf(both.data)).toEqual([reports[3]?.reportId]);
    expect(both.total).toBe(1);
    expect((await list('?serviceId=unknown')).total).toBe(0);
  });

  it('pages with an opaque cursor', async () => {
    const first = await list('?limit=3&cursor=');
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await list(`?limit=3&cursor=${first.nextCursor}`);
    expect([...idsOf(first.data), ...idsOf(rest.data)]).toEqual(newestFirst(() => true));
    expect(rest.nextCursor).toBeNull();
  });

  it('refuses bad list parameters with one message each', async () => {
    const reply = await client.request('GET', `${BLAST}?limit=101&page=0`, undefined, admin.auth);
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual(['limit', 'page']);
  });

  it("summarises each service by its average score, in the spec's tiers", async () => {
    const reply = await client.request('GET', `${BLAST}/risk-summary`, undefined, admin.auth);
    expect(reply.status).toBe(200);
    const scores = new Map<string, { name: string; scores: number[] }>();
    for (const report of reports) {
      for (const affected of report.affectedServices) {
        const entry = scores.get(affected.serviceId) ?? { name: affected.name, scores: [] };
        entry.scores.push(affected.riskScore);
        scores.set(affected.serviceId, entry);
      }
    }
    const averages = [...scores].map(([serviceId, { name, scores: all }]) => ({
      serviceId,
      name,
      averageRiskScore: Math.round((all.reduce((sum, score) => sum + score, 0) / all.length) * 100) / 100,
    }));
    const tier = (score: number) => (score >= 0.75 ? 'high' : score >= 0.4 ? 'medium' : 'low');
    const summary = reply.body.data;
    expect(summary.totalServicesAnalysed).toBe(3);
    expect(summary.riskDistribution).toEqual({
      high: averages.filter((entry) => tier(entry.averageRiskScore) === 'high').length,
      medium: averages.filter((entry) => tier(entry.averageRiskScore) === 'medium').length,
      low: averages.filter((entry) => tier(entry.averageRiskScore) === 'low').length,
    });
    expect(summary.highRiskServices).toEqual(
      averages
        .filter((entry) => entry.averageRiskScore >= 0.75)
        .sort((a, b) => b.averageRiskScore - a.averageRiskScore),
    );
    expect(summary.lastUpdated).toBe(reports.at(-1)?.calculatedAt);
    const empty = await client.request('GET', `${BLAST}/risk-summary`, undefined, other.auth);
    expect(empty.body.data).toEqual({
      totalServicesAnalysed: 0,
      highRiskServices: [],
      riskDistribution: { high: 0, medium: 0, low: 0 },
      lastUpdated: null,
    });
  });

  it('has its totals and risk sums repaired by the counter recount', async () => {
    const summary = async () => (await client.request('GET', `${BLAST}/risk-summary`, undefined, admin.auth)).body.data;
    const before = await summary();
    const workspaceId = admin.user.businessId ?? '';
    const { table } = client.stack.ports;
    await addToCounters(table, { pk: workspaceKey(workspaceId, 'COUNTER'), sk: 'BLAST_REPORTS' }, { total: -2 });
    await addToCounters(table, { pk: workspaceKey(workspaceId, 'BLASTRISK'), sk: db.id }, { scoreSum: 5, reports: -1 });
    expect((await list()).total).toBe(3);
    await recountCounters(systemAccountScope(client.stack.ports));
    expect((await list()).total).toBe(5);
    expect(await summary()).toEqual(before);
  });

  it("answers 404 for another workspace's report, an unknown one and a malformed id", async () => {
    for (const [id, as] of [
      [reports[0]?.reportId, other],
      ['01J0000000000000000000000Z', admin],
      ['nonsense', admin],
    ] as const) {
      expect((await client.request('GET', `${BLAST}/${id}`, undefined, as.auth)).status).toBe(404);
    }
    expect((await list('', other)).total).toBe(0);
  });

  it('lets a VIEWER read the reports but not calculate one', async () => {
    expect((await list('', viewer)).total).toBe(5);
    for (const path of ['/risk-summary', `/${reports[0]?.reportId}`, `/trigger/${db.id}`]) {
      expect((await client.request('GET', `${BLAST}${path}`, undefined, viewer.auth)).status, path).toBe(200);
    }
    const reply = await client.request('POST', `${BLAST}/calculate`, { serviceId: db.id }, viewer.auth);
    expect(reply.status).toBe(403);
  });

  it('reads with analytics:read keys and calculates with incidents:write keys', async () => {
    const analytics = await apiKeyHeaders(client, admin, ['analytics:read']);
    const writer = await apiKeyHeaders(client, admin, ['incidents:write']);
    const reader = await apiKeyHeaders(client, admin, ['incidents:read']);
    expect((await client.request('GET', `${BLAST}/risk-summary`, undefined, analytics)).status).toBe(200);
    expect((await client.request('GET', BLAST, undefined, reader)).status).toBe(403);
    expect((await client.request('POST', `${BLAST}/calculate`, { serviceId: db.id }, analytics)).status).toBe(403);
    const made = await calculate(client, writer, { serviceId: db.id });
    expect(made.serviceId).toBe(db.id);
    expect((await client.request('GET', BLAST, undefined, writer)).status).toBe(403);
  });
});
