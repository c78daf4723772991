import { systemScope } from '#lib/identity/scope.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whoIsOnCall } from '#lib/on-call/on-call-service.ts';
import { onCallRepository } from '#lib/on-call/on-call-repository.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { joinAs } from '../support/accounts.ts';

const ASSIGN = '/api/v1/assign-member';
const ALL = '/api/v1/get-all-assign';
const ONE = '/api/v1/get-assign';
const UNKNOWN_ID = '01J0000000000000000000000Z';

describe('on-call', () => {
  let client: TestClient;
  let admin: SignedIn;
  let engineer: SignedIn;
  let viewer: SignedIn;
  let other: SignedIn;

  const workspaceOf = (as: SignedIn): string => as.user.businessId as string;
  const assign = (body: Record<string, unknown>, as: SignedIn = admin) => client.request('POST', ASSIGN, body, as.auth);
  const assigned = async (body: Record<string, unknown>, as: SignedIn = admin) => {
    const reply = await assign(body, as);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  };
  const onCallAt = async (as: SignedIn, instant: string) =>
    (await whoIsOnCall(systemScope(workspaceOf(as), client.stack.ports), new Date(instant))).map(
      (assignment) => assignment.id,
    );

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [engineer, viewer] = await Promise.all([joinAs(client, admin, 'ENGINEER'), joinAs(client, admin, 'VIEWER')]);
  });
  afterAll(() => client.stack.stop());

  describe('POST /assign-member', () => {
    it('assigns a member for a span of a date, in UTC when no time zone is configured', async () => {
      const reply = await assign({
        userId: engineer.user.id,
        date: '2030-01-10',
        startTime: '09:00',
        endTime: '17:30',
      });
      expect(reply.status).toBe(201);
      expect(reply.body.message).toBe('Member assigned');
      expect(reply.body.data).toEqual({
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        userId: engineer.user.id,
        email: engineer.email,
        date: '2030-01-10',
        startTime: '09:00',
        endTime: '17:30',
        timezone: 'UTC',
        startsAt: '2030-01-10T09:00:00.000Z',
        endsAt: '2030-01-10T17:30:00.000Z',
        createdAt: expect.any(String),
      });
    });

    it('lets an ENGINEER assign, and a shift run to 24:00', async () => {
      const assignment = await assigned(
        { userId: viewer.user.id, date: '2030-01-10', startTime: '18:00', endTime: '24:00' },
        engineer,
      );
      expect(assignment).toMatchObject({ endTime: '24:00', endsAt: '2030-01-11T00:00:00.000Z' });
    });

    it('validates dates, 24-hour times and that the end comes after the start', async () => {
      const valid = { userId: admin.user.id, date: '2030-02-01', startTime: '08:00', endTime: '09:00' };
      const cases: [Record<string, unknown>, string][] = [
        [{ date: '2030-2-1' }, 'date:'],
        [{ date: '2030-02-30' }, 'date:'],
        [{ date: '2029-02-29' }, 'date:'],
        [{ date: '01/02/2030' }, 'date:'],
        [{ startTime: '25:00' }, 'startTime:'],
        [{ startTime: '9:00' }, 'startTime:'],
        [{ startTime: '12:60' }, 'startTime:'],
        [{ startTime: '24:00', endTime: '24:00' }, 'startTime:'],
        [{ endTime: '24:01' }, 'endTime:'],
        [{ endTime: '7am' }, 'endTime:'],
        [{ endTime: '07:59' }, 'endTime: must be after startTime'],
        [{ endTime: '08:00' }, 'endTime: must be after startTime'],
        [{ userId: '' }, 'userId:'],
        [{ userId: 42 }, 'userId:'],
      ];
      for (const [change, message] of cases) {
        const reply = await assign({ ...valid, ...change });
        expect(reply.status, JSON.stringify(change)).toBe(400);
        expect(reply.body.errors, JSON.stringify(change)).toEqual([expect.stringContaining(message)]);
      }
      const missing = await assign({});
      expect(missing.status).toBe(400);
      expect(missing.body.errors.map((error: string) => error.split(':')[0]).sort()).toEqual([
        'date',
        'endTime',
        'startTime',
        'userId',
      ]);
    });

    it('refuses a user who is not a member of the workspace, including another workspace admin', async () => {
      for (const userId of [other.user.id, '00000000-0000-4000-8000-000000000000']) {
        const reply = await assign({ userId, date: '2030-03-01', startTime: '08:00', endTime: '09:00' });
        expect(reply.status).toBe(400);
        expect(reply.body.errors).toEqual([`userId: no member ${userId} in this workspace`]);
      }
    });

    it('refuses overlapping shifts of one person with 409, and allows back-to-back and other people', async () => {
      const shift = { userId: admin.user.id, date: '2030-04-01', startTime: '08:00', endTime: '12:00' };
      const first = await assigned(shift);
      for (const [startTime, endTime] of [
        ['08:00', '12:00'],
        ['11:59', '13:00'],
        ['07:00', '08:01'],
        ['09:00', '10:00'],
        ['06:00', '14:00'],
      ]) {
        const reply = await assign({ ...shift, startTime, endTime });
        expect(reply.status, `${startTime}-${endTime}`).toBe(409);
        expect(reply.body.errors).toEqual([`startTime: overlaps assignment ${first.id} on 2030-04-01, 08:00 to 12:00`]);
      }
      await assigned({ ...shift, startTime: '12:00', endTime: '13:00' });
      await assigned({ ...shift, startTime: '07:00', endTime: '08:00' });
      await assigned({ ...shift, userId: engineer.user.id });
      await assigned({ ...shift, date: '2030-04-02' });
    });

    it('accepts exactly one of two identical requests sent at once', async () => {
      const shift = { userId: engineer.user.id, date: '2030-05-01', startTime: '10:00', endTime: '11:00' };
      const replies = await Promise.all([assign(shift), assign(shift), assign(shift)]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409]);
    });

    it('drops a reservation a crash left without its assignment, once it is a minute old', async () => {
      const { table } = client.stack.ports;
      const shift = { userId: viewer.user.id, date: '2030-06-01', startTime: '10:00', endTime: '11:00' };
      const leftover = { id: UNKNOWN_ID, startsAt: '2030-06-01T10:00:00.000Z', endsAt: '2030-06-01T11:00:00.000Z' };
      const fresh = { ...leftover, reservedAt: new Date().toISOString() };
      expect(
        await onCallRepository(table, workspaceOf(admin)).writeShiftDay(viewer.user.id, '2030-06-01', {
          shifts: [fresh],
          rev: 0,
        }),
      ).toBe(true);
      const blocked = await assign(shift);
      expect(blocked.status).toBe(409);
      expect(blocked.body.errors).toEqual([
        `startTime: overlaps assignment ${UNKNOWN_ID}, which is being created right now`,
      ]);

      const stale = { ...leftover, reservedAt: new Date(Date.now() - 120_000).toISOString() };
      expect(
        await onCallRepository(table, workspaceOf(admin)).writeShiftDay(viewer.user.id, '2030-06-01', {
          shifts: [stale],
          rev: 1,
        }),
      ).toBe(true);
      await assigned(shift);
    });

    it('is refused to a VIEWER', async () => {
      const reply = await assign(
        { userId: viewer.user.id, date: '2030-07-01', startTime: '08:00', endTime: '09:00' },
        viewer,
      );
      expect(reply.status).toBe(403);
    });
  });

  describe('GET /get-all-assign and /get-assign/:id', () => {
    let business: SignedIn;
    let ids: Record<string, string>;

    beforeAll(async () => {
      business = await signUpBusiness(client, { businessName: 'Rota Co' });
      const userId = business.user.id;
      ids = {};
      for (const [name, date, startTime, endTime] of [
        ['midJan', '2030-01-15', '08:00', '12:00'],
        ['lateJanEarly', '2030-01-20', '00:00', '06:00'],
        ['earlyJan', '2030-01-01', '20:00', '23:00'],
        ['lateJanLate', '2030-01-20', '18:00', '24:00'],
        ['feb', '2030-02-01', '09:00', '10:00'],
      ] as const) {
        ids[name] = (await assigned({ userId, date, startTime, endTime }, business)).id;
      }
    });

    it('lists every assignment as data.assignments, latest date first, then latest start', async () => {
      const reply = await client.request('GET', ALL, undefined, business.auth);
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body.data)).toEqual(['assignments']);
      expect(reply.body.data.assignments.map((assignment: { id: string }) => assignment.id)).toEqual([
        ids.feb,
        ids.lateJanLate,
        ids.lateJanEarly,
        ids.midJan,
        ids.earlyJan,
      ]);
      expect(reply.body.data.assignments[0]).toMatchObject({
        userId: business.user.id,
        date: '2030-02-01',
        startTime: '09:00',
        endTime: '10:00',
      });
    });

    it('shows each workspace only its own assignments, to every role', async () => {
      const theirs = await client.request('GET', ALL, undefined, other.auth);
      expect(theirs.body.data).toEqual({ assignments: [] });
      const viewers = await client.request('GET', ALL, undefined, viewer.auth);
      expect(viewers.status).toBe(200);
      expect(viewers.body.data.assignments.length).toBeGreaterThan(0);
      expect(viewers.body.data.assignments.some((assignment: { id: string }) => assignment.id === ids.feb)).toBe(false);
    });

    it('gets one assignment, and 404 for unknown ids and other workspaces', async () => {
      const reply = await client.request('GET', `${ONE}/${ids.midJan}`, undefined, business.auth);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({
        id: ids.midJan,
        date: '2030-01-15',
        startTime: '08:00',
        endTime: '12:00',
      });
      for (const [id, as] of [
        [UNKNOWN_ID, business],
        ['not-an-id', business],
        [ids.midJan, other],
        [ids.midJan, admin],
      ] as const) {
        const missing = await client.request('GET', `${ONE}/${id}`, undefined, as.auth);
        expect(missing.status, id).toBe(404);
        expect(missing.body).toEqual({ success: false, message: 'On-call assignment not found', errors: [] });
      }
      expect((await client.request('GET', `${ONE}/${ids.midJan}`)).status).toBe(401);
    });
  });

  describe('time zones and whoIsOnCall', () => {
    let business: SignedIn;
    let colleague: SignedIn;

    beforeAll(async () => {
      business = await signUpBusiness(client, { businessName: 'Berlin Co' });
      const ims = await client.request(
        'POST',
        '/api/v1/ims/setup',
        { alertEmail: 'alerts@example.com', timezone: 'Europe/Berlin' },
        business.auth,
      );
      expect(ims.status, ims.text).toBe(201);
      colleague = await joinAs(client, business, 'ENGINEER');
    });

    it('reads date and times in the IMS time zone and stores the UTC instants', async () => {
      const winter = await assigned(
        { userId: business.user.id, date: '2030-01-10', startTime: '00:00', endTime: '02:00' },
        business,
      );
      expect(winter).toMatchObject({
        timezone: 'Europe/Berlin',
        startsAt: '2030-01-09T23:00:00.000Z',
        endsAt: '2030-01-10T01:00:00.000Z',
      });
      const summer = await assigned(
        { userId: business.user.id, date: '2030-07-10', startTime: '09:00', endTime: '17:00' },
        business,
      );
      expect(summer).toMatchObject({ startsAt: '2030-07-10T07:00:00.000Z', endsAt: '2030-07-10T15:00:00.000Z' });
    });

    it('refuses a shift that lies wholly in the hour the clocks skip', async () => {
      const reply = await assign(
        { userId: business.user.id, date: '2030-03-31', startTime: '02:00', endTime: '03:00' },
        business,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([expect.stringMatching(/^endTime: .*Europe\/Berlin/)]);
    });

    it('finds who is on call at an instant: start inclusive, end exclusive', async () => {
      const day = { date: '2030-09-02' };
      const morning = await assigned(
        { ...day, userId: business.user.id, startTime: '08:00', endTime: '12:00' },
        business,
      );
      const midday = await assigned(
        { ...day, userId: colleague.user.id, startTime: '11:00', endTime: '14:00' },
        business,
      );
      const night = await assigned(
        { ...day, userId: colleague.user.id, startTime: '22:00', endTime: '24:00' },
        business,
      );
      // Berlin is UTC+2 in September.
      expect(await onCallAt(business, '2030-09-02T05:59:59.999Z')).toEqual([]);
      expect(await onCallAt(business, '2030-09-02T06:00:00.000Z')).toEqual([morning.id]);
      expect(await onCallAt(business, '2030-09-02T09:30:00.000Z')).toEqual([morning.id, midday.id]);
      expect(await onCallAt(business, '2030-09-02T10:00:00.000Z')).toEqual([midday.id]);
      expect(await onCallAt(business, '2030-09-02T12:00:00.000Z')).toEqual([]);
      expect(await onCallAt(business, '2030-09-02T21:59:00.000Z')).toEqual([night.id]);
      expect(await onCallAt(business, '2030-09-02T22:00:00.000Z')).toEqual([]);
    });

    it('finds a whole-day shift late in a 25-hour day', async () => {
      const long = await assigned(
        { userId: business.user.id, date: '2030-10-27', startTime: '00:00', endTime: '24:00' },
        business,
      );
      expect(long).toMatchObject({ startsAt: '2030-10-26T22:00:00.000Z', endsAt: '2030-10-27T23:00:00.000Z' });
      expect(await onCallAt(business, '2030-10-27T22:30:00.000Z')).toEqual([long.id]);
    });

    it('never answers with another workspace assignments', async () => {
      expect(await onCallAt(other, '2030-09-02T09:30:00.000Z')).toEqual([]);
    });
  });
});
