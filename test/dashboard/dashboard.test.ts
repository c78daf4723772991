import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { DASHBOARD, INCIDENTS, at, dashboardData, incidentAt, resolveAt } from './support.ts';

const WINDOW = { from: '2026-01-10', to: '2026-01-12' };
const PERIOD = { from: '2026-01-10T00:00:00.000Z', to: '2026-01-12T23:59:59.999Z' };

describe('dashboard', () => {
  let client: TestClient;
  let admin: SignedIn;
  let engineer: SignedIn;
  let viewer: SignedIn;
  let other: SignedIn;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [engineer, viewer] = await Promise.all([joinAs(client, admin, 'ENGINEER'), joinAs(client, admin, 'VIEWER')]);
    ids.quick = await incidentAt(client, admin, '2026-01-10T09:15:00Z', { source: 'Alertmanager' });
    await resolveAt(client, engineer, '2026-01-10T09:45:00Z', ids.quick);
    ids.slow = await incidentAt(client, admin, '2026-01-10T10:05:00Z', {
      priority: 'CRITICAL',
      source: 'alertmanager',
    });
    await resolveAt(client, admin, '2026-01-11T10:05:00Z', ids.slow);
    ids.open = await incidentAt(client, admin, '2026-01-11T12:00:00Z', { priority: 'LOW', source: 'github' });
    ids.raised = await incidentAt(client, engineer, '2026-01-12T00:30:00Z', { priority: 'MEDIUM' });
    await at(client, '2026-01-12T01:00:00Z', () =>
      client.request('PUT', `${INCIDENTS}/${ids.raised}`, { priority: 'CRITICAL' }, admin.auth),
    );
    ids.later = await incidentAt(client, admin, '2026-01-20T08:00:00Z', { source: 'github' });
    await resolveAt(client, admin, '2026-01-20T09:00:00Z', ids.later);
    await incidentAt(client, other, '2026-01-10T09:30:00Z', { source: 'other-tool' });
  });
  afterAll(() => client.stack.stop());

  describe('GET /dashboard/metrics', () => {
    it('describes the incidents created in the window as they are now', async () => {
      expect(await dashboardData(client, admin.auth, 'metrics', WINDOW)).toEqual({
        totalIncidents: 4,
        openIncidents: 2,
        resolvedIncidents: 2,
        mttr: (30 * 60 + 24 * 3600) / 2,
        mttd: null,
        slaBreaches: 0,
        slaComplianceRate: 100,
        slaGovernedIncidents: 0,
        criticalIncidents: 2,
        highIncidents: 1,
        signalsIngested: 0,
        period: PERIOD,
      });
    });

    it('counts the hours holding from and to whole, and nothing of another workspace', async () => {
      const hour = await dashboardData(client, admin.auth, 'metrics', {
        from: '2026-01-10T09:59:00Z',
        to: '2026-01-10T10:00:00Z',
      });
      expect(hour).toMatchObject({ totalIncidents: 2, resolvedIncidents: 2 });
      expect(await dashboardData(client, other.auth, 'metrics', WINDOW)).toMatchObject({
        totalIncidents: 1,
        openIncidents: 1,
        mttr: null,
        criticalIncidents: 0,
        highIncidents: 1,
      });
    });

    it('defaults to the 30 days up to now', async () => {
      const before = Date.now();
      const { period, totalIncidents } = await dashboardData(client, admin.auth, 'metrics');
      expect(totalIncidents).toBe(0);
      expect(Date.parse(period.to)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(period.to) - Date.parse(period.from)).toBe(30 * 24 * 3600 * 1000);
    });
  });

  describe('GET /dashboard/analytics', () => {
    it('answers the trend, breakdowns and MTTR per member who resolved', async () => {
      const data = await dashboardData(client, admin.auth, 'analytics', WINDOW);
      expect(data).toEqual({
        incidentTrend: [
          { date: '2026-01-10', created: 2, resolved: 1 },
          { date: '2026-01-11', created: 1, resolved: 1 },
          { date: '2026-01-12', created: 1, resolved: 0 },
        ],
        severityBreakdown: { LOW: 1, MEDIUM: 0, HIGH: 1, CRITICAL: 2 },
        sourceBreakdown: { alertmanager: 2, github: 1 },
        mttrByTeamMember: [
          { userId: admin.user.id, name: 'Ada Lovelace', mttr: 24 * 3600, incidentsResolved: 1 },
          { userId: engineer.user.id, name: 'Grace Hopper', mttr: 30 * 60, incidentsResolved: 1 },
        ],
        topIncidentSources: [
          { source: 'alertmanager', count: 2, percentage: 50 },
          { source: 'github', count: 1, percentage: 25 },
        ],
        period: { ...PERIOD, granularity: 'day' },
      });
    });

    it('buckets by hour and by week from Monday', async () => {
      const hourly = await dashboardData(client, admin.auth, 'analytics', {
        from: '2026-01-10T09:00:00Z',
        to: '2026-01-10T11:00:00Z',
        granularity: 'hour',
      });
      expect(hourly.incidentTrend).toEqual([
        { date: '2026-01-10T09:00:00+00:00', created: 1, resolved: 1 },
        { date: '2026-01-10T10:00:00+00:00', created: 1, resolved: 0 },
        { date: '2026-01-10T11:00:00+00:00', created: 0, resolved: 0 },
      ]);
      // 2026-01-12 is a Monday: the 10th and 11th are the week of the 5th.
      const weekly = await dashboardData(client, admin.auth, 'analytics', { ...WINDOW, granularity: 'week' });
      expect(weekly.incidentTrend).toEqual([
        { date: '2026-01-05', created: 3, resolved: 2 },
        { date: '2026-01-12', created: 1, resolved: 0 },
      ]);
    });

    it('follows a reopen and a delete: the incident leaves what it counted in', async () => {
      await at(client, '2026-01-13T00:00:00Z', async () => {
        const reopened = await client.request('PUT', `${INCIDENTS}/${ids.quick}`, { status: 'OPEN' }, admin.auth);
        expect(reopened.status, reopened.text).toBe(200);
        const deleted = await client.request('DELETE', `${INCIDENTS}/${ids.open}`, undefined, admin.auth);
        expect(deleted.status, deleted.text).toBe(200);
      });
      const metrics = await dashboardData(client, admin.auth, 'metrics', WINDOW);
      expect(metrics).toMatchObject({ totalIncidents: 3, openIncidents: 2, resolvedIncidents: 1, mttr: 24 * 3600 });
      const analytics = await dashboardData(client, viewer.auth, 'analytics', WINDOW);
      expect(analytics.incidentTrend[0]).toEqual({ date: '2026-01-10', created: 2, resolved: 0 });
      expect(analytics.sourceBreakdown).toEqual({ alertmanager: 2 });
      expect(analytics.mttrByTeamMember).toEqual([
        { userId: admin.user.id, name: 'Ada Lovelace', mttr: 24 * 3600, incidentsResolved: 1 },
      ]);
      expect(analytics.topIncidentSources).toEqual([{ source: 'alertmanager', count: 2, percentage: 66.67 }]);
    });
  });

  describe('validation', () => {
    const expect400 = async (route: string, query: Record<string, string>, errors: string[]) => {
      const reply = await client.request(
        'GET',
        `${DASHBOARD}/${route}?${new URLSearchParams(query)}`,
        undefined,
        admin.auth,
      );
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toEqual({ success: false, message: 'Validation failed', errors });
    };

    it('refuses malformed bounds and granularities, one message per field', async () => {
      const reply = await client.request(
        'GET',
        `${DASHBOARD}/analytics?from=yesterday&to=2026-13-01&granularity=month`,
        undefined,
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toHaveLength(3);
      expect(reply.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual([
        'from',
        'granularity',
        'to',
      ]);
    });

    it('refuses an empty or reversed window, a span over 366 days and hourly points over 31 days', async () => {
      await expect400('metrics', { from: '2026-01-12', to: '2026-01-10' }, [
        'from: must be before to (2026-01-10T23:59:59.999Z)',
      ]);
      await expect400('metrics', { from: '2026-01-10T00:00:00Z', to: '2026-01-10T00:00:00Z' }, [
        'from: must be before to (2026-01-10T00:00:00.000Z)',
      ]);
      await expect400('metrics', { from: '2025-01-01', to: '2026-01-10' }, [
        'from: must be at most 366 days before to',
      ]);
      await expect400('analytics', { from: '2026-01-01', to: '2026-02-10', granularity: 'hour' }, [
        'granularity: hour covers at most 31 days; ask for day or week',
      ]);
      const future = new Date(Date.now() + 3600_000).toISOString();
      const reply = await client.request('GET', `${DASHBOARD}/metrics?from=${future}`, undefined, admin.auth);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0]).toMatch(/^from: must be before to/);
    });
  });

  describe('access', () => {
    it('lets every role and keys with analytics:read read, and no one without credentials', async () => {
      const analyticsKey = await apiKeyHeaders(client, admin, ['analytics:read']);
      const incidentsKey = await apiKeyHeaders(client, admin, ['incidents:read']);
      for (const route of ['metrics', 'analytics'] as const) {
        expect((await dashboardData(client, viewer.auth, route, WINDOW)).period.from).toBe(PERIOD.from);
        expect((await dashboardData(client, analyticsKey, route, WINDOW)).period.from).toBe(PERIOD.from);
        const refused = await client.request('GET', `${DASHBOARD}/${route}`, undefined, incidentsKey);
        expect(refused.status).toBe(403);
        expect((await client.request('GET', `${DASHBOARD}/${route}`)).status).toBe(401);
      }
      const byKey = await dashboardData(client, analyticsKey, 'metrics', WINDOW);
      expect(byKey.totalIncidents).toBe((await dashboardData(client, admin.auth, 'metrics', WINDOW)).totalIncidents);
    });
  });
});
