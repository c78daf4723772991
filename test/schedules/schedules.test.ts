import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const SCHEDULES = '/api/v1/schedules';
const HOUR = 60 * 60_000;

describe('on-call schedules through HTTP', () => {
  let client: TestClient;
  let admin: SignedIn;
  let engineer: SignedIn;
  let viewer: SignedIn;
  let other: SignedIn;

  /** A weekly rotation of the admin (A) then the engineer (B), starting an hour ago. */
  const weekly = () => ({
    name: 'Checkout',
    timezone: 'Europe/Berlin',
    layers: [
      {
        start: new Date(Date.now() - HOUR).toISOString(),
        rotationType: 'weekly',
        handoffTime: '09:00',
        members: [admin.user.id, engineer.user.id],
      },
    ],
  });

  const create = async (as: SignedIn = admin, body: unknown = weekly()) => {
    const reply = await client.request('POST', SCHEDULES, body, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as { id: string; calendarUrl: string };
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [engineer, viewer] = await Promise.all([joinAs(client, admin, 'ENGINEER'), joinAs(client, admin, 'VIEWER')]);
  });
  afterAll(() => client.stack.stop());

  it('answers the first member of a weekly rotation that started an hour ago, from its layer', async () => {
    const schedule = await create(engineer);
    const reply = await client.request('GET', `${SCHEDULES}/${schedule.id}/on-call`, undefined, viewer.auth);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.onCall).toMatchObject({ userId: admin.user.id, source: { type: 'layer', layer: 0 } });
    expect(Date.parse(reply.body.data.onCall.end)).toBeGreaterThan(Date.now() + 6 * 24 * HOUR);
  });

  it('answers the override member from the override on: B covers A from now', async () => {
    const schedule = await create();
    const start = new Date().toISOString();
    const end = new Date(Date.now() + 2 * HOUR).toISOString();
    const made = await client.request(
      'POST',
      `${SCHEDULES}/${schedule.id}/overrides`,
      { userId: engineer.user.id, start, end },
      admin.auth,
    );
    expect(made.status, made.text).toBe(201);
    const at = new Date(Date.now() + HOUR).toISOString();
    const reply = await client.request('GET', `${SCHEDULES}/${schedule.id}/on-call?at=${at}`, undefined, admin.auth);
    expect(reply.body.data.onCall).toMatchObject({
      userId: engineer.user.id,
      source: { type: 'override', overrideId: made.body.data.id },
    });
    const overrides = await client.request('GET', `${SCHEDULES}/${schedule.id}/overrides`, undefined, viewer.auth);
    expect(overrides.body.data).toEqual([made.body.data]);

    const removed = await client.request(
      'DELETE',
      `${SCHEDULES}/${schedule.id}/overrides/${made.body.data.id}`,
      undefined,
      admin.auth,
    );
    expect(removed.status).toBe(200);
    const after = await client.request('GET', `${SCHEDULES}/${schedule.id}/on-call?at=${at}`, undefined, admin.auth);
    expect(after.body.data.onCall.userId).toBe(admin.user.id);
  });

  it('lists the final shifts of a window and refuses a window over 31 days', async () => {
    const schedule = await create();
    const from = new Date(Date.now() - HOUR).toISOString();
    const to = new Date(Date.now() + 14 * 24 * HOUR).toISOString();
    const reply = await client.request(
      'GET',
      `${SCHEDULES}/${schedule.id}/shifts?from=${from}&to=${to}`,
      undefined,
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.map((shift: { userId: string }) => shift.userId).slice(0, 2)).toEqual([
      admin.user.id,
      engineer.user.id,
    ]);
    const far = new Date(Date.now() + 40 * 24 * HOUR).toISOString();
    const tooWide = await client.request(
      'GET',
      `${SCHEDULES}/${schedule.id}/shifts?from=${from}&to=${far}`,
      undefined,
      admin.auth,
    );
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.errors).toEqual([expect.stringMatching(/^to: must be at most 31 days after from/)]);
  });

  it('serves the calendar feed as text/calendar with the shifts, without credentials', async () => {
    const schedule = await create();
    const path = new URL(schedule.calendarUrl).pathname;
    const reply = await client.request('GET', path);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(reply.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(reply.text.match(/BEGIN:VEVENT/g)?.length).toBeGreaterThanOrEqual(8);
    expect(reply.text).toContain('SUMMARY:');

    const forged = await client.request('GET', `${path.slice(0, -3)}xyz`);
    expect(forged.status).toBe(400);
    await client.request('DELETE', `${SCHEDULES}/${schedule.id}`, undefined, admin.auth);
    expect((await client.request('GET', path)).status).toBe(404);
  });

  it("answers 404 for another workspace's schedule, to read, change or delete", async () => {
    const schedule = await create();
    for (const [method, path, body] of [
      ['GET', `${SCHEDULES}/${schedule.id}`, undefined],
      [
        'PUT',
        `${SCHEDULES}/${schedule.id}`,
        { ...weekly(), layers: [{ ...weekly().layers[0], members: [other.user.id] }] },
      ],
      ['DELETE', `${SCHEDULES}/${schedule.id}`, undefined],
      ['GET', `${SCHEDULES}/${schedule.id}/on-call`, undefined],
    ] as const) {
      expect((await client.request(method, path, body, other.auth)).status, `${method} ${path}`).toBe(404);
    }
    const mine = await client.request('GET', SCHEDULES, undefined, other.auth);
    expect(mine.body.data.map(({ id }: { id: string }) => id)).toEqual(['default']);
    expect((await client.request('GET', `${SCHEDULES}/${schedule.id}`, undefined, admin.auth)).status).toBe(200);
  });

  it('refuses bad input with field messages, and writes by a viewer', async () => {
    const bad = await client.request(
      'POST',
      SCHEDULES,
      {
        name: '',
        timezone: 'Mars/Olympus',
        layers: [{ start: 'yesterday', rotationType: 'custom', handoffTime: '25:00', members: [] }],
      },
      admin.auth,
    );
    expect(bad.status).toBe(400);
    const fields = (bad.body.errors as string[]).map((message) => message.split(':')[0]);
    expect(fields).toEqual(
      expect.arrayContaining(['name', 'timezone', 'layers.0.start', 'layers.0.handoffTime', 'layers.0.members']),
    );

    const stranger = await client.request(
      'POST',
      SCHEDULES,
      { ...weekly(), layers: [{ ...weekly().layers[0], members: [other.user.id] }] },
      admin.auth,
    );
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors).toEqual([`layers.0.members.0: no member ${other.user.id} in this workspace`]);

    const schedule = await create();
    const backwards = await client.request(
      'POST',
      `${SCHEDULES}/${schedule.id}/overrides`,
      { userId: admin.user.id, start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z' },
      admin.auth,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual([expect.stringMatching(/^end: must be after start/)]);

    expect((await client.request('POST', SCHEDULES, weekly(), viewer.auth)).status).toBe(403);
    expect((await client.request('GET', SCHEDULES, undefined, viewer.auth)).status).toBe(200);
  });

  it('replaces a schedule in place, keeping its id and calendar link, and deletes it', async () => {
    const schedule = await create();
    const replaced = await client.request(
      'PUT',
      `${SCHEDULES}/${schedule.id}`,
      { ...weekly(), name: 'Checkout nights' },
      engineer.auth,
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data).toMatchObject({
      id: schedule.id,
      name: 'Checkout nights',
      calendarUrl: schedule.calendarUrl,
    });
    expect((await client.request('DELETE', `${SCHEDULES}/${schedule.id}`, undefined, admin.auth)).status).toBe(200);
    expect((await client.request('GET', `${SCHEDULES}/${schedule.id}`, undefined, admin.auth)).status).toBe(404);
  });
});
