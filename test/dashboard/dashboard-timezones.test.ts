import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { dashboardData, incidentAt, resolveAt } from './support.ts';

/** A workspace whose IMS configuration names `timezone`. */
const zoned = async (client: TestClient, timezone: string): Promise<SignedIn> => {
  const admin = await signUpBusiness(client, { businessName: `Zoned ${timezone}` });
  const reply = await client.request('POST', '/api/v1/ims/setup', { alertEmail: admin.email, timezone }, admin.auth);
  expect(reply.status, reply.text).toBe(201);
  return admin;
};

const trend = async (client: TestClient, as: SignedIn, query: Record<string, string>) =>
  (await dashboardData(client, as.auth, 'analytics', query)).incidentTrend;

describe('dashboard buckets in the workspace time zone', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(() => client.stack.stop());

  it('puts an incident after local midnight in the next local day, however late it is in UTC', async () => {
    const admin = await zoned(client, 'America/New_York');
    // 03:30 UTC on the 24th is 22:30 on the 23rd in New York (UTC-5); 05:30 UTC is 00:30 on the 24th.
    await incidentAt(client, admin, '2026-11-24T03:30:00Z');
    const late = await incidentAt(client, admin, '2026-11-24T05:30:00Z');
    await resolveAt(client, admin, '2026-11-24T06:00:00Z', late);
    expect(await trend(client, admin, { from: '2026-11-23T12:00:00Z', to: '2026-11-25T04:00:00Z' })).toEqual([
      { date: '2026-11-23', created: 1, resolved: 0 },
      { date: '2026-11-24', created: 1, resolved: 1 },
    ]);
  });

  it('gives the spring-forward day 23 hours and names each local hour with its offset', async () => {
    const admin = await zoned(client, 'Europe/Berlin');
    // 2026-03-29: 02:00 CET jumps to 03:00 CEST. 00:30 UTC is 01:30 CET, 01:30 UTC is 03:30 CEST.
    await incidentAt(client, admin, '2026-03-29T00:30:00Z');
    await incidentAt(client, admin, '2026-03-29T01:30:00Z');
    // 21:30 UTC is 23:30 CEST, still the 29th; 22:30 UTC is 00:30 on the 30th.
    await incidentAt(client, admin, '2026-03-29T21:30:00Z');
    await incidentAt(client, admin, '2026-03-29T22:30:00Z');
    const hours = await trend(client, admin, {
      from: '2026-03-29T00:00:00Z',
      to: '2026-03-29T01:59:00Z',
      granularity: 'hour',
    });
    expect(hours).toEqual([
      { date: '2026-03-29T01:00:00+01:00', created: 1, resolved: 0 },
      { date: '2026-03-29T03:00:00+02:00', created: 1, resolved: 0 },
    ]);
    const days = await trend(client, admin, { from: '2026-03-28T23:00:00Z', to: '2026-03-30T21:59:59Z' });
    expect(days).toEqual([
      { date: '2026-03-29', created: 3, resolved: 0 },
      { date: '2026-03-30', created: 1, resolved: 0 },
    ]);
  });

  it('tells the two 02:00 hours of the fall-back night apart, and starts weeks on local Mondays', async () => {
    const admin = await zoned(client, 'Europe/Berlin');
    // 2026-10-25: 03:00 CEST falls back to 02:00 CET. 00:30 UTC is 02:30 CEST, 01:30 UTC is 02:30 CET.
    await incidentAt(client, admin, '2026-10-25T00:30:00Z');
    await incidentAt(client, admin, '2026-10-25T01:30:00Z');
    expect(
      await trend(client, admin, { from: '2026-10-25T00:00:00Z', to: '2026-10-25T01:59:00Z', granularity: 'hour' }),
    ).toEqual([
      { date: '2026-10-25T02:00:00+02:00', created: 1, resolved: 0 },
      { date: '2026-10-25T02:00:00+01:00', created: 1, resolved: 0 },
    ]);
    // Sunday the 25th 23:30 CET (22:30 UTC) is still the week of Monday the 19th.
    await incidentAt(client, admin, '2026-10-25T22:30:00Z');
    await incidentAt(client, admin, '2026-10-25T23:30:00Z');
    expect(await trend(client, admin, { from: '2026-10-24', to: '2026-10-26', granularity: 'week' })).toEqual([
      { date: '2026-10-19', created: 3, resolved: 0 },
      { date: '2026-10-26', created: 1, resolved: 0 },
    ]);
  });

  it('puts a UTC hour that straddles a half-hour zone midnight in the day holding most of it', async () => {
    const admin = await zoned(client, 'Asia/Kolkata');
    // Midnight in Kolkata (UTC+05:30) is 18:30 UTC: the hour 18:00-19:00 UTC goes to the next day, as documented.
    await incidentAt(client, admin, '2026-11-23T17:59:00Z');
    await incidentAt(client, admin, '2026-11-23T18:10:00Z');
    await incidentAt(client, admin, '2026-11-23T18:40:00Z');
    expect(await trend(client, admin, { from: '2026-11-23T00:00:00Z', to: '2026-11-24T12:00:00Z' })).toEqual([
      { date: '2026-11-23', created: 1, resolved: 0 },
      { date: '2026-11-24', created: 2, resolved: 0 },
    ]);
  });

  it('uses UTC when the workspace has no time zone', async () => {
    const admin = await signUpBusiness(client, { businessName: 'No zone' });
    await incidentAt(client, admin, '2026-11-24T03:30:00Z');
    expect(await trend(client, admin, { from: '2026-11-24', to: '2026-11-24' })).toEqual([
      { date: '2026-11-24', created: 1, resolved: 0 },
    ]);
  });
});
