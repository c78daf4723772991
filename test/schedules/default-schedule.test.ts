import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const V1 = '/api/v1';
const DEFAULT = `${V1}/schedules/default`;
const HOUR = 60 * 60_000;

/** A UTC date `days` from today, as `assign-member` takes it. */
const dayFromToday = (days: number): string => new Date(Date.now() + days * 24 * HOUR).toISOString().slice(0, 10);

describe("the workspace's default schedule: the spec's assignments are its overrides", () => {
  let client: TestClient;
  let admin: SignedIn;
  let engineer: SignedIn;
  let other: SignedIn;

  const call = async (as: SignedIn, method: string, path: string, body?: unknown, status = 200) => {
    const reply = await client.request(method, path, body, as.auth);
    expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
    return reply.body?.data;
  };

  const assign = (as: SignedIn, userId: string, date: string, startTime = '00:00', endTime = '24:00') =>
    call(as, 'POST', `${V1}/assign-member`, { userId, date, startTime, endTime }, 201);

  /** The members an incident's opening paged as on call (the alert address aside). */
  const pagedOnOpening = async (as: SignedIn, alertEmail: string): Promise<string[]> => {
    const incident = await call(
      as,
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Checkout down', priority: 'HIGH' },
      201,
    );
    await client.stack.deliveriesIdle();
    const deliveries = (await call(as, 'GET', `${V1}/incident-ticket/${incident.id}/notifications`)) as {
      event: string;
      recipient: string;
    }[];
    return deliveries
      .filter(({ event, recipient }) => event === 'OPENED' && recipient !== alertEmail && recipient.includes('@'))
      .map(({ recipient }) => recipient)
      .sort();
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    engineer = await joinAs(client, admin, 'ENGINEER');
  });
  afterAll(() => client.stack.stop());

  it('is there in a new workspace, listed first, with no layers and a calendar link of its own', async () => {
    const own = await call(admin, 'GET', DEFAULT);
    expect(own).toMatchObject({ id: 'default', name: 'Default', layers: [] });
    const listed = (await call(admin, 'GET', `${V1}/schedules`)) as { id: string; calendarUrl: string }[];
    expect(listed[0]).toEqual(own);
    const theirs = await call(other, 'GET', DEFAULT);
    expect(theirs.calendarUrl).not.toBe(own.calendarUrl);
    // Read again, it is the same record: the first read stored it once.
    expect(await call(admin, 'GET', DEFAULT)).toEqual(own);
  });

  it("is stored once under concurrent first reads, in the workspace's zone, and a PUT keeps its calendar link", async () => {
    const fresh = await signUpBusiness(client, { businessName: 'Concurrent Co' });
    await call(
      fresh,
      'POST',
      `${V1}/ims/setup`,
      { alertEmail: 'alerts-fresh@example.com', timezone: 'Europe/Berlin' },
      201,
    );
    const [one, two, list] = await Promise.all([
      call(fresh, 'GET', DEFAULT),
      call(fresh, 'GET', DEFAULT),
      call(fresh, 'GET', `${V1}/schedules`),
    ]);
    expect(one).toMatchObject({ id: 'default', timezone: 'Europe/Berlin' });
    expect(two).toEqual(one);
    expect(list).toEqual([one]);
    const put = await call(fresh, 'PUT', DEFAULT, {
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        { start: new Date().toISOString(), rotationType: 'daily', handoffTime: '09:00', members: [fresh.user.id] },
      ],
    });
    expect(put).toMatchObject({ id: 'default', name: 'Primary', calendarUrl: one.calendarUrl });
    const feed = await fetch(one.calendarUrl);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('on call (Primary)');
  });

  it('answers an assignment as an override, and on-call as that member by it', async () => {
    const assignment = await assign(admin, engineer.user.id, dayFromToday(3));
    const overrides = (await call(admin, 'GET', `${DEFAULT}/overrides`)) as Record<string, unknown>[];
    expect(overrides).toContainEqual({
      id: assignment.id,
      scheduleId: 'default',
      userId: engineer.user.id,
      start: assignment.startsAt,
      end: assignment.endsAt,
      createdAt: assignment.createdAt,
      source: 'assignment',
    });
    const at = new Date(Date.parse(assignment.startsAt) + HOUR).toISOString();
    const { onCall } = await call(admin, 'GET', `${DEFAULT}/on-call?at=${at}`);
    expect(onCall).toEqual({
      userId: engineer.user.id,
      start: assignment.startsAt,
      end: assignment.endsAt,
      source: { type: 'override', overrideId: assignment.id },
    });
    const from = assignment.startsAt;
    const to = new Date(Date.parse(assignment.endsAt) + HOUR).toISOString();
    expect(await call(admin, 'GET', `${DEFAULT}/shifts?from=${from}&to=${to}`)).toEqual([onCall]);
    // Another workspace's default schedule knows nothing of it.
    expect((await call(other, 'GET', `${DEFAULT}/on-call?at=${at}`)).onCall).toBeNull();
    expect(await call(other, 'GET', `${DEFAULT}/overrides`)).toEqual([]);
  });

  it('puts the assignment in the calendar feed under the member name', async () => {
    const { calendarUrl } = await call(admin, 'GET', DEFAULT);
    const feed = await fetch(calendarUrl);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await feed.text();
    expect(text).toContain('SUMMARY:Grace Hopper on call (Default)');
  });

  it('cannot be deleted, nor can an assignment through it; an override posted to it can', async () => {
    await call(admin, 'DELETE', DEFAULT, undefined, 409);
    const assignment = await assign(admin, engineer.user.id, dayFromToday(5));
    await call(admin, 'DELETE', `${DEFAULT}/overrides/${assignment.id}`, undefined, 409);
    expect((await call(admin, 'GET', `${V1}/get-assign/${assignment.id}`)).id).toBe(assignment.id);
    const posted = await call(
      admin,
      'POST',
      `${DEFAULT}/overrides`,
      {
        userId: admin.user.id,
        start: new Date(Date.parse(assignment.startsAt) + HOUR).toISOString(),
        end: new Date(Date.parse(assignment.startsAt) + 2 * HOUR).toISOString(),
      },
      201,
    );
    // Created later, the posted override wins over the assignment where they overlap.
    const at = new Date(Date.parse(assignment.startsAt) + 90 * 60_000).toISOString();
    expect((await call(admin, 'GET', `${DEFAULT}/on-call?at=${at}`)).onCall.userId).toBe(admin.user.id);
    await call(admin, 'DELETE', `${DEFAULT}/overrides/${posted.id}`);
    expect((await call(admin, 'GET', `${DEFAULT}/on-call?at=${at}`)).onCall.userId).toBe(engineer.user.id);
  });

  it('pages its rotation for an incident with no policy when no assignment covers, the assignment when one does', async () => {
    const lead = await signUpBusiness(client, { businessName: 'Rotation Co' });
    const alertEmail = 'alerts-rotation@example.com';
    await call(lead, 'POST', `${V1}/ims/setup`, { alertEmail, timezone: 'UTC' }, 201);
    const second = await joinAs(client, lead, 'ENGINEER');
    // No schedule, no assignment: nobody on call, as before.
    expect(await pagedOnOpening(lead, alertEmail)).toEqual([]);

    await call(lead, 'PUT', DEFAULT, {
      name: 'Everyone',
      timezone: 'UTC',
      layers: [
        {
          start: new Date(Date.now() - HOUR).toISOString(),
          rotationType: 'weekly',
          handoffTime: '09:00',
          members: [lead.user.id],
        },
      ],
    });
    expect(await pagedOnOpening(lead, alertEmail)).toEqual([lead.email]);

    await assign(lead, second.user.id, dayFromToday(0));
    expect(await pagedOnOpening(lead, alertEmail)).toEqual([second.email]);
  });

  it('may be the target of an escalation policy level, which pages the assigned member', async () => {
    const alertEmail = 'alerts-policy@example.com';
    await call(admin, 'POST', `${V1}/ims/setup`, { alertEmail, timezone: 'UTC' }, 201);
    const policy = await call(
      admin,
      'POST',
      `${V1}/escalation-policies`,
      {
        name: 'By the default schedule',
        levels: [{ delayMinutes: 0, targets: [{ type: 'schedule', id: 'default' }] }],
      },
      201,
    );
    await call(admin, 'POST', `${V1}/service-map`, { name: 'billing', escalationPolicyId: policy.id }, 201);
    await assign(admin, engineer.user.id, dayFromToday(0));
    const incident = await call(
      admin,
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Invoices stuck', priority: 'HIGH', serviceArea: 'billing' },
      201,
    );
    await client.stack.deliveriesIdle();
    const deliveries = (await call(admin, 'GET', `${V1}/incident-ticket/${incident.id}/notifications`)) as {
      event: string;
      recipient: string;
    }[];
    expect(deliveries.filter(({ event }) => event === 'OPENED').map(({ recipient }) => recipient)).toContain(
      engineer.email,
    );
    // A schedule the workspace does not have is still refused.
    await call(
      other,
      'POST',
      `${V1}/escalation-policies`,
      { name: 'Theirs', levels: [{ delayMinutes: 0, targets: [{ type: 'schedule', id: 'nope' }] }] },
      400,
    );
  });
});
