import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '#lib/identity/scope.ts';
import { isTeamSilentAt } from '#lib/silent-hours/silent-hours-service.ts';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const RULES = '/api/v1/silent-hours';
const UNKNOWN_ID = '01J0000000000000000000000Z';

const nights = {
  name: 'Payments nights',
  startTime: '22:00',
  endTime: '06:00',
  timezone: 'Europe/Berlin',
  daysOfWeek: [5, 1, 1],
  teamScope: 'Payments',
};

describe('silent hours', () => {
  let client: TestClient;
  let admin: SignedIn;
  let engineer: SignedIn;
  let viewer: SignedIn;
  let other: SignedIn;

  const replace = (rules: unknown[], as: SignedIn = admin) => client.request('POST', RULES, { rules }, as.auth);
  const list = async (as: SignedIn = admin) => {
    const reply = await client.request('GET', RULES, undefined, as.auth);
    expect(reply.status).toBe(200);
    return reply.body.data.rules as Record<string, unknown>[];
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [engineer, viewer] = await Promise.all([joinAs(client, admin, 'ENGINEER'), joinAs(client, admin, 'VIEWER')]);
  });
  afterAll(() => client.stack.stop());

  it('answers an empty set before any write', async () => {
    expect(await list()).toEqual([]);
  });

  it('replaces the whole set with server ids, days once and in order, team slugs lower-cased, active by default', async () => {
    const first = await replace([nights, { ...nights, name: 'Weekend', daysOfWeek: [6, 7], isActive: false }]);
    expect(first.status, first.text).toBe(200);
    const rules = first.body.data.rules;
    expect(rules).toEqual([
      {
        ...nights,
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        daysOfWeek: [1, 5],
        teamScope: 'payments',
        isActive: true,
      },
      expect.objectContaining({ name: 'Weekend', daysOfWeek: [6, 7], isActive: false }),
    ]);
    expect(await list(viewer)).toEqual(rules);

    const second = await replace([{ ...nights, name: 'Only one' }], engineer);
    expect(second.status).toBe(200);
    const [only] = second.body.data.rules;
    expect(only.id).not.toBe(rules[0].id);
    expect(await list()).toEqual([only]);
  });

  it('never interleaves concurrent replaces: the set is always one request whole', async () => {
    const sets = Array.from({ length: 6 }, (_, request) =>
      Array.from({ length: 3 }, (_, index) => ({ ...nights, name: `request ${request} rule ${index}` })),
    );
    const replies = await Promise.all(sets.map((rules) => replace(rules)));
    for (const reply of replies) expect([200, 409]).toContain(reply.status);
    const winners = replies.filter((reply) => reply.status === 200);
    expect(winners.length).toBeGreaterThan(0);
    const stored = await list();
    expect(winners.map((reply) => reply.body.data.rules)).toContainEqual(stored);
    expect(new Set(stored.map((rule) => String(rule.name).split(' rule')[0])).size).toBe(1);
  });

  it('replaces and deletes one rule, keeping the others', async () => {
    const [kept, changed] = (await replace([nights, { ...nights, name: 'Search', teamScope: 'search' }])).body.data
      .rules;
    const put = await client.request(
      'PUT',
      `${RULES}/${changed.id}`,
      { ...nights, name: 'Search days', startTime: '09:00', endTime: '17:00', teamScope: 'search', isActive: false },
      engineer.auth,
    );
    expect(put.status, put.text).toBe(200);
    expect(put.body.data).toMatchObject({ id: changed.id, name: 'Search days', startTime: '09:00', isActive: false });
    expect(await list()).toEqual([kept, put.body.data]);

    const deleted = await client.request('DELETE', `${RULES}/${kept.id}`, undefined, admin.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: kept.id });
    expect(await list()).toEqual([put.body.data]);
    expect((await client.request('DELETE', `${RULES}/${kept.id}`, undefined, admin.auth)).status).toBe(404);
  });

  it('answers 404 for unknown ids and for another workspace’s', async () => {
    const [theirs] = (await replace([nights], other)).body.data.rules;
    for (const id of [UNKNOWN_ID, 'not-an-id', theirs.id]) {
      expect((await client.request('PUT', `${RULES}/${id}`, nights, admin.auth)).status).toBe(404);
      expect((await client.request('DELETE', `${RULES}/${id}`, undefined, admin.auth)).status).toBe(404);
    }
    expect(await list(other)).toEqual([theirs]);
  });

  it('names every bad field, writes nothing, and refuses offsets as time zones', async () => {
    const before = await list();
    const reply = await replace([
      {
        name: ' ',
        startTime: '24:00',
        endTime: '7:00',
        timezone: '+02:00',
        daysOfWeek: [0, 8],
        teamScope: 'Team A',
        isActive: 'yes',
      },
    ]);
    expect(reply.status).toBe(400);
    const fields = (reply.body.errors as string[]).map((error) => error.split(':')[0]);
    expect(new Set(fields)).toEqual(
      new Set([
        'rules.0.name',
        'rules.0.startTime',
        'rules.0.endTime',
        'rules.0.timezone',
        'rules.0.daysOfWeek.0',
        'rules.0.daysOfWeek.1',
        'rules.0.teamScope',
        'rules.0.isActive',
      ]),
    );
    expect((await replace([{ ...nights, timezone: 'Mars/Olympus' }])).status).toBe(400);
    expect((await replace([{ ...nights, daysOfWeek: [] }])).status).toBe(400);
    expect((await client.request('POST', RULES, {}, admin.auth)).status).toBe(400);
    const { timezone: _left, ...missing } = nights;
    expect((await client.request('PUT', `${RULES}/${UNKNOWN_ID}`, missing, admin.auth)).status).toBe(400);
    expect(await list()).toEqual(before);
  });

  it('lets a VIEWER read only, and API keys by their scopes', async () => {
    expect((await replace([nights], viewer)).status).toBe(403);
    const [rule] = await list();
    expect((await client.request('DELETE', `${RULES}/${String(rule?.id)}`, undefined, viewer.auth)).status).toBe(403);
    const reader = await apiKeyHeaders(client, admin, ['incidents:read']);
    const writer = await apiKeyHeaders(client, admin, ['incidents:write']);
    expect((await client.request('GET', RULES, undefined, reader)).status).toBe(200);
    expect((await client.request('POST', RULES, { rules: [nights] }, reader)).status).toBe(403);
    expect((await client.request('GET', RULES, undefined, writer)).status).toBe(403);
    expect((await client.request('POST', RULES, { rules: [nights] }, writer)).status).toBe(200);
  });

  it('answers whether a team is silent at an instant from the stored set', async () => {
    await replace([
      nights,
      { ...nights, name: 'All weekend', startTime: '00:00', endTime: '00:00', daysOfWeek: [6], teamScope: '*' },
    ]);
    const scope = systemScope(admin.user.businessId as string, client.stack.ports);
    // Monday 2026-03-02 22:00 in Berlin is 21:00 UTC; Saturday 2026-03-07 is silent for every team.
    expect(await isTeamSilentAt(scope, 'payments', new Date('2026-03-02T21:00:00Z'))).toBe(true);
    expect(await isTeamSilentAt(scope, 'payments', new Date('2026-03-02T20:59:00Z'))).toBe(false);
    expect(await isTeamSilentAt(scope, 'search', new Date('2026-03-02T21:00:00Z'))).toBe(false);
    expect(await isTeamSilentAt(scope, 'search', new Date('2026-03-07T12:00:00Z'))).toBe(true);
    const otherScope = systemScope(other.user.businessId as string, client.stack.ports);
    expect(await isTeamSilentAt(otherScope, 'search', new Date('2026-03-07T12:00:00Z'))).toBe(false);
  });
});
