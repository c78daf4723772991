import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAs, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { ackPathIn, incidentFromAlert, mailTo } from '../notifications/support.ts';
import { team, type Team } from '../support/team.ts';
import { create, HOUR, incidentOf, MINUTE, plus, sweepAt, V1, weeklySchedule } from './policy-support.ts';

/**
 * Issue 43's "Done when", in its own words, through the real stack: a real Alertmanager webhook through
 * ingestion and correlation, the notification worker's mail, the acknowledge link, and the SLA sweep on a fake
 * clock. "With a weekly rotation of A then B starting an hour ago, a policy whose level 1 is that schedule and
 * whose level 2 (one minute later) is member C, and a service naming that policy, an alert on the service pages
 * A and neither B nor C; C is paged after the delay; acknowledging stops further pages; an override for B from
 * now makes `on-call` answer B; the calendar feed is `text/calendar` with the shifts."
 */
let client: TestClient;
let ops: Team;
let a: SignedIn;
let b: SignedIn;
let c: SignedIn;
let schedule: Record<string, any>;
let incident: Record<string, any>;

/** The pages about the incident that reached `who`: its opening and its escalations, not the news of it. */
const pagesTo = async (who: SignedIn) =>
  (await mailTo(client, who.email)).filter(
    ({ subject }) => subject.includes(incident.id) && !subject.includes(' acknowledged by '),
  );

beforeAll(async () => {
  client = await startTestStack(':memory:', undefined, { workers: true });
  ops = await team(client, 'Rotations');
  [a, b, c] = await Promise.all([
    joinAs(client, ops.admin, 'ENGINEER'),
    joinAs(client, ops.admin, 'ENGINEER'),
    joinAs(client, ops.admin, 'ENGINEER'),
  ]);
  schedule = await weeklySchedule(client, ops.admin, [a, b]);
  // Level 1's delay is the wait before a repeat pass: without an acknowledgement, A would be paged again.
  const policy = await create(client, ops.admin, '/escalation-policies', {
    name: 'Checkout',
    levels: [
      { delayMinutes: 1, targets: [{ type: 'schedule', id: schedule.id }] },
      { delayMinutes: 1, targets: [{ type: 'member', id: c.user.id }] },
    ],
    repeat: 1,
  });
  await create(client, ops.admin, '/service-map', { name: 'checkout', escalationPolicyId: policy.id });
  const startsAt = new Date(Date.now() - MINUTE).toISOString().replace(/\.\d+Z$/, 'Z');
  incident = await incidentFromAlert(client, ops, startsAt);
  await client.stack.deliveriesIdle();
}, 60_000);
afterAll(() => client?.stack.stop());

describe("issue 43's Done when, through the real stack", () => {
  it('an Alertmanager alert on the service pages A, and neither B nor C', async () => {
    expect(incident.serviceArea).toBe('checkout');
    expect((await pagesTo(a)).map(({ subject }) => subject)).toEqual([
      `[HIGH] ${incident.id} opened: Checkout error rate above 5% on checkout`,
    ]);
    expect(await pagesTo(b)).toEqual([]);
    expect(await pagesTo(c)).toEqual([]);
    expect((await incidentOf(client, ops.admin, incident.id)).escalationLevel).toBe(1);
  });

  it('pages C after the delay, and nobody before it', async () => {
    await sweepAt(client, plus(incident.createdAt, 50_000));
    expect(await pagesTo(c)).toEqual([]);
    await sweepAt(client, plus(incident.createdAt, MINUTE + 1_000), 2);
    expect((await pagesTo(c)).map(({ subject }) => subject)).toEqual([
      `[HIGH] ${incident.id} not acknowledged, escalated to level 2: Checkout error rate above 5% on checkout`,
    ]);
    expect(await pagesTo(b)).toEqual([]);
  });

  it("stops further pages once A acknowledges through the page's link", async () => {
    const [page] = await pagesTo(a);
    const acked = await client.request('POST', ackPathIn(page as { text: string }));
    expect(acked.status, acked.text).toBe(200);
    expect((await incidentOf(client, ops.admin, incident.id)).status).toBe('ACKNOWLEDGED');
    // Unacknowledged, the repeat pass would have paged A again two minutes in, and C a minute later.
    for (const after of [2 * MINUTE + 1_000, 3 * MINUTE + 1_000, HOUR]) {
      await sweepAt(client, plus(incident.createdAt, after));
    }
    expect(await pagesTo(a)).toHaveLength(1);
    expect(await pagesTo(b)).toEqual([]);
    expect(await pagesTo(c)).toHaveLength(1);
  });

  it('answers B on call once an override for B starts now, and tells B so', async () => {
    const now = new Date();
    await create(client, ops.admin, `/schedules/${schedule.id}/overrides`, {
      userId: b.user.id,
      start: now.toISOString(),
      end: new Date(now.getTime() + 2 * HOUR).toISOString(),
    });
    const reply = await client.request('GET', `${V1}/schedules/${schedule.id}/on-call`, undefined, ops.admin.auth);
    expect(reply.body.data.onCall).toMatchObject({ userId: b.user.id, source: { type: 'override' } });
    await sweepAt(client, new Date(now.getTime() + 30_000));
    const told = (await mailTo(client, b.email)).filter(({ subject }) => subject.startsWith('You are on call for'));
    expect(told.map(({ subject }) => subject)).toEqual(['You are on call for Checkout primary']);
    expect(told[0]?.text).toContain('An override put you on call.');
  });

  it('serves the calendar feed as text/calendar, with the shifts by name', async () => {
    const reply = await client.request('GET', new URL(schedule.calendarUrl).pathname);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(reply.text).toContain('BEGIN:VCALENDAR');
    expect(reply.text.match(/BEGIN:VEVENT/g)?.length).toBeGreaterThanOrEqual(3);
    expect(reply.text).toContain('Grace Hopper on call (Checkout primary)');
  });
});
