import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { create, HOUR, MINUTE, sweepAt, V1 } from '../escalation/policy-support.ts';
import { ISO_INSTANT, mailTo } from '../notifications/support.ts';

/**
 * Handoff notices (issue 43, docs/on-call.md): the SLA sweep tells a member, once, that their stretch on call
 * started, in the workspace's zone and in names; through the real stack on the sweep's fake clock.
 */
let client: TestClient;
let ada: SignedIn;
let grace: SignedIn;
let cover: SignedIn;
let schedule: Record<string, any>;

/** Monday 7 December 2026, 08:00 UTC: 09:00 in Berlin, the workspace's zone. */
const FIRST_TURN = Date.parse('2026-12-07T08:00:00Z');
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const instant = (ms: number) => new Date(FIRST_TURN + ms);

const noticesTo = async (who: SignedIn | string) =>
  (await mailTo(client, typeof who === 'string' ? who : who.email)).filter(({ subject }) =>
    subject.startsWith('You are on call for'),
  );

beforeAll(async () => {
  client = await startTestStack();
  ada = await signUpBusiness(client, { businessName: 'Handoff Co', firstName: 'Ada', lastName: 'Lovelace' });
  const setup = await client.request(
    'POST',
    `${V1}/ims/setup`,
    { alertEmail: 'alerts-handoff@example.com', timezone: 'Europe/Berlin' },
    ada.auth,
  );
  expect(setup.status, setup.text).toBe(201);
  [grace, cover] = await Promise.all([joinAs(client, ada, 'ENGINEER'), joinAs(client, ada, 'ENGINEER')]);
  // The schedule's own zone is UTC: the notice still tells the workspace's clock.
  schedule = await create(client, ada, '/schedules', {
    name: 'Checkout primary',
    timezone: 'UTC',
    layers: [
      {
        start: new Date(FIRST_TURN).toISOString(),
        rotationType: 'weekly',
        handoffTime: '08:00',
        members: [ada.user.id, grace.user.id],
      },
    ],
  });
});
afterAll(() => client?.stack.stop());

describe('a handoff notice', () => {
  it('tells the member whose turn starts, once however many sweeps run, in words and names', async () => {
    await sweepAt(client, instant(30_000), 3);
    await sweepAt(client, instant(MINUTE + 30_000));
    const notices = await noticesTo(ada);
    expect(notices.map(({ subject }) => subject)).toEqual(['You are on call for Checkout primary']);
    const [notice] = notices;
    expect(notice?.text).toContain('Hello Ada Lovelace,');
    expect(notice?.text).toContain(
      'You are on call for Checkout primary until Mon 09:00 on 14 December 2026 (Europe/Berlin).',
    );
    expect(notice?.text).toContain('It is your turn in the rotation.');
    expect(notice?.text).toContain('Next on call: Grace Hopper.');
    expect(notice?.text).toMatch(/Who is on call, now and next: \S+\/on-call/);
    expect(notice?.text).not.toMatch(ISO_INSTANT);
    expect(notice?.text).not.toContain(schedule.id);
    expect(notice?.text).not.toContain(grace.user.id);
    expect(await noticesTo(grace)).toEqual([]);
  });

  it('still tells a handoff the sweep reached late, within the hour', async () => {
    await sweepAt(client, instant(WEEK + 45 * MINUTE));
    const notices = await noticesTo(grace);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('until Mon 09:00 on 21 December 2026 (Europe/Berlin).');
    expect(notices[0]?.text).toContain('Next on call: Ada Lovelace.');
    await sweepAt(client, instant(WEEK + 50 * MINUTE));
    expect(await noticesTo(grace)).toHaveLength(1);
  });

  it('tells whom an override puts on call, and the member whose turn resumes after it', async () => {
    const start = instant(WEEK + DAY + 4 * HOUR);
    const end = instant(WEEK + DAY + 10 * HOUR);
    await create(client, ada, `/schedules/${schedule.id}/overrides`, {
      userId: cover.user.id,
      start: start.toISOString(),
      end: end.toISOString(),
    });
    await sweepAt(client, new Date(start.getTime() + 10_000));
    const [notice, ...more] = await noticesTo(cover);
    expect(more).toEqual([]);
    expect(notice?.text).toContain(
      'You are on call for Checkout primary until Tue 19:00 on 15 December 2026 (Europe/Berlin).',
    );
    expect(notice?.text).toContain('An override put you on call.');
    expect(notice?.text).toContain('Next on call: Grace Hopper.');
    await sweepAt(client, new Date(end.getTime() + 10_000));
    const back = await noticesTo(grace);
    expect(back).toHaveLength(2);
    expect(back[0]?.text).toContain('until Mon 09:00 on 21 December 2026 (Europe/Berlin).');
  });

  it('is not sent for a stretch that began more than an hour before the sweep', async () => {
    await sweepAt(client, instant(2 * WEEK + HOUR + MINUTE));
    expect(await noticesTo(ada)).toHaveLength(1);
  });

  it('is tried again by the next sweep when the outbox refused it', async () => {
    const ports = client.stack.ports;
    installPorts({
      ...ports,
      clock: { now: () => instant(3 * WEEK + 10_000) },
      mail: {
        appUrl: ports.mail.appUrl,
        send: () => Promise.reject(new Error('outbox unavailable')),
      },
    });
    try {
      await slaSweep();
    } finally {
      installPorts(ports);
    }
    expect(await noticesTo(grace)).toHaveLength(2);
    await sweepAt(client, instant(3 * WEEK + MINUTE));
    expect(await noticesTo(grace)).toHaveLength(3);
  });

  it('tells nobody for the turn of a member removed from the workspace', async () => {
    const leaver = await joinAs(client, ada, 'ENGINEER');
    const start = instant(4 * WEEK);
    await create(client, ada, '/schedules', {
      name: 'Leavers',
      timezone: 'UTC',
      layers: [{ start: start.toISOString(), rotationType: 'daily', handoffTime: '08:00', members: [leaver.user.id] }],
    });
    const removed = await client.request('DELETE', `${V1}/business/members/${leaver.user.id}`, undefined, ada.auth);
    expect(removed.status, removed.text).toBe(200);
    await sweepAt(client, new Date(start.getTime() + 10_000));
    expect(await noticesTo(leaver)).toEqual([]);
  });
});
