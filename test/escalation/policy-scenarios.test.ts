import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullName, joinAs, MEMBER_NAME, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';
import {
  at,
  create,
  HOUR,
  incidentOf,
  MINUTE,
  openIncident,
  pagesTo,
  plus,
  type PolicyTeam,
  policyTeam,
  serviceWith,
  setStatus,
  sweepAt,
  V1,
  weeklySchedule,
} from './policy-support.ts';

/**
 * Escalation policies through the API, on the sweep's fake clock (docs/on-call.md): issue 43's "Done when"
 * scenario, levels, repeats, a late sweep, the ack timeout, escalate now and a member removed mid-rotation.
 */
let client: TestClient;
let team: PolicyTeam;

beforeAll(async () => {
  client = await startTestStack();
  team = await policyTeam(client, 'Rotations Co');
});
afterAll(() => client?.stack.stop());

const member = (who: SignedIn) => ({ type: 'member', id: who.user.id });

/** A service named `name` whose incidents page by a new policy of `levels`. */
const serviceOf = async (name: string, levels: unknown[], extra: Record<string, unknown> = {}) => {
  const policy = await create(client, team.admin, '/escalation-policies', { name: `${name} policy`, levels, ...extra });
  await serviceWith(client, team.admin, name, policy.id);
  return policy;
};

describe("issue 43's scenario: a weekly rotation of A then B at level 1, member C a minute later", () => {
  let schedule: Record<string, any>;
  let incident: Record<string, any>;

  beforeAll(async () => {
    schedule = await weeklySchedule(client, team.admin, [team.a, team.b]);
    await serviceOf('checkout', [
      { delayMinutes: 0, targets: [{ type: 'schedule', id: schedule.id }] },
      { delayMinutes: 1, targets: [member(team.c)] },
    ]);
    incident = await openIncident(client, team.admin, 'checkout');
    await client.stack.deliveriesIdle();
  });

  it('pages A, who is on call, and neither B nor C when the alert opens the incident', async () => {
    expect(await pagesTo(client, team.a, incident.id)).toEqual([`[HIGH] ${incident.id} opened: checkout is down`]);
    expect(await pagesTo(client, team.b, incident.id)).toEqual([]);
    expect(await pagesTo(client, team.c, incident.id)).toEqual([]);
    expect((await incidentOf(client, team.admin, incident.id)).escalationLevel).toBe(1);
  });

  it('pages nobody more before level 2 is due', async () => {
    await sweepAt(client, plus(incident.createdAt, 59_000));
    expect(await pagesTo(client, team.c, incident.id)).toEqual([]);
  });

  it('pages C after the delay, once, however many sweeps run at that instant', async () => {
    await sweepAt(client, plus(incident.createdAt, MINUTE + 1_000), 3);
    expect(await pagesTo(client, team.c, incident.id)).toEqual([
      `[HIGH] ${incident.id} not acknowledged, escalated to level 2: checkout is down`,
    ]);
    expect(await pagesTo(client, team.a, incident.id)).toHaveLength(1);
    expect(await incidentOf(client, team.admin, incident.id)).toMatchObject({ escalationLevel: 2, escalationCount: 1 });
    const deliveries = await client.request(
      'GET',
      `${V1}/incident-ticket/${incident.id}/notifications`,
      undefined,
      team.admin.auth,
    );
    expect(
      deliveries.body.data
        .filter(({ event }: { event: string }) => event === 'ESCALATION')
        .map((d: any) => d.recipient),
    ).toEqual([team.c.email]);
  });

  it('stops paging once acknowledged', async () => {
    await setStatus(client, team.a, incident.id, 'ACKNOWLEDGED');
    await sweepAt(client, plus(incident.createdAt, HOUR));
    expect(await pagesTo(client, team.a, incident.id)).toHaveLength(1);
    expect(await pagesTo(client, team.c, incident.id)).toHaveLength(1);
    const news = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(team.c.email)}`);
    const subjects = (news.body.data as { subject: string }[]).map(({ subject }) => subject);
    expect(subjects.filter((subject) => subject.includes(`acknowledged by ${fullName(MEMBER_NAME)}`))).toHaveLength(1);
  });

  it('answers B on call once an override for B starts now', async () => {
    const start = new Date().toISOString();
    const end = new Date(Date.now() + 2 * HOUR).toISOString();
    await create(client, team.admin, `/schedules/${schedule.id}/overrides`, { userId: team.b.user.id, start, end });
    const reply = await client.request('GET', `${V1}/schedules/${schedule.id}/on-call`, undefined, team.viewer.auth);
    expect(reply.body.data.onCall).toMatchObject({ userId: team.b.user.id, source: { type: 'override' } });
  });
});

describe('levels and repeats', () => {
  it('passes through the levels again `repeat` times, level 1 waiting its own delay after the last level', async () => {
    await serviceOf(
      'payments',
      [
        { delayMinutes: 2, targets: [member(team.a)] },
        { delayMinutes: 1, targets: [{ type: 'email', address: 'Lead@Payments.example.com' }] },
      ],
      { repeat: 1 },
    );
    const lead = 'lead@payments.example.com';
    await confirmOutsideAddress(client, lead);
    const incident = await openIncident(client, team.admin, 'payments');
    const counts = async () => [
      (await pagesTo(client, team.a, incident.id)).length,
      (await pagesTo(client, lead, incident.id)).length,
    ];
    await client.stack.deliveriesIdle();
    expect(await counts()).toEqual([1, 0]);
    await sweepAt(client, plus(incident.createdAt, MINUTE + 1_000));
    expect(await counts()).toEqual([1, 1]);
    await sweepAt(client, plus(incident.createdAt, 2 * MINUTE + 1_000));
    expect(await counts()).toEqual([1, 1]);
    await sweepAt(client, plus(incident.createdAt, 3 * MINUTE + 1_000));
    expect(await counts()).toEqual([2, 1]);
    expect((await incidentOf(client, team.admin, incident.id)).escalationLevel).toBe(1);
    await sweepAt(client, plus(incident.createdAt, 4 * MINUTE + 1_000));
    expect(await counts()).toEqual([2, 2]);
    await sweepAt(client, plus(incident.createdAt, 3 * HOUR));
    expect(await counts()).toEqual([2, 2]);
    expect(await incidentOf(client, team.admin, incident.id)).toMatchObject({ escalationLevel: 2, escalationCount: 3 });
  });

  it('reaches every level a late sweep skipped, in one page each', async () => {
    await serviceOf('search', [
      { delayMinutes: 0, targets: [member(team.a)] },
      { delayMinutes: 1, targets: [member(team.b)] },
      { delayMinutes: 1, targets: [member(team.c)] },
    ]);
    const incident = await openIncident(client, team.admin, 'search');
    await sweepAt(client, plus(incident.createdAt, 10 * MINUTE));
    expect(await pagesTo(client, team.b, incident.id)).toEqual([
      `[HIGH] ${incident.id} not acknowledged, escalated to level 3: search is down`,
    ]);
    expect(await pagesTo(client, team.c, incident.id)).toHaveLength(1);
    expect((await incidentOf(client, team.admin, incident.id)).escalationLevel).toBe(3);
  });
});

describe('ack timeout', () => {
  it('returns an acknowledged, unresolved incident to OPEN and pages level 1 again, then the next levels', async () => {
    await serviceOf(
      'ledger',
      [
        { delayMinutes: 0, targets: [member(team.a)] },
        { delayMinutes: 2, targets: [member(team.c)] },
      ],
      { ackTimeoutMinutes: 5 },
    );
    const incident = await openIncident(client, team.admin, 'ledger');
    const acknowledged = await setStatus(client, team.a, incident.id, 'ACKNOWLEDGED');
    const since = acknowledged.lastAcknowledgedAt as string;
    await sweepAt(client, plus(since, 5 * MINUTE - 1_000));
    expect((await incidentOf(client, team.admin, incident.id)).status).toBe('ACKNOWLEDGED');

    const reopenedAt = plus(since, 5 * MINUTE + 1_000);
    await sweepAt(client, reopenedAt, 2);
    expect(await incidentOf(client, team.admin, incident.id)).toMatchObject({
      status: 'OPEN',
      escalationLevel: 1,
      escalationStartedAt: reopenedAt.toISOString(),
    });
    expect((await pagesTo(client, team.a, incident.id)).sort()).toEqual([
      `[HIGH] ${incident.id} not acknowledged, escalated to level 1: ledger is down`,
      `[HIGH] ${incident.id} opened: ledger is down`,
    ]);
    await sweepAt(client, new Date(reopenedAt.getTime() + 2 * MINUTE + 1_000));
    expect(await pagesTo(client, team.c, incident.id)).toHaveLength(1);
  });

  it('leaves an incident moved on to INVESTIGATION alone', async () => {
    const incident = await openIncident(client, team.admin, 'ledger');
    await setStatus(client, team.a, incident.id, 'ACKNOWLEDGED');
    const moved = await setStatus(client, team.a, incident.id, 'INVESTIGATION');
    await sweepAt(client, plus(moved.updatedAt, HOUR));
    expect((await incidentOf(client, team.admin, incident.id)).status).toBe('INVESTIGATION');
  });
});

describe('escalate now', () => {
  const escalate = (who: SignedIn, id: string) =>
    client.request('POST', `${V1}/incident-ticket/${id}/escalate`, undefined, who.auth);

  it('pages the next level at once, acknowledged or not; then 409 past the last level and once resolved', async () => {
    const incident = await openIncident(client, team.admin, 'checkout');
    expect((await escalate(team.viewer, incident.id)).status).toBe(403);
    await setStatus(client, team.a, incident.id, 'ACKNOWLEDGED');
    const reply = await at(client, new Date(), () => escalate(team.b, incident.id));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({ escalationLevel: 2, escalationCount: 1, status: 'ACKNOWLEDGED' });
    expect(await pagesTo(client, team.c, incident.id)).toEqual([
      `[HIGH] ${incident.id} escalated to level 2 on request: checkout is down`,
    ]);
    const last = await escalate(team.b, incident.id);
    expect(last.status, last.text).toBe(409);
    expect(last.body.errors).toEqual([expect.stringMatching(/^escalationLevel: level 2 was the last page/)]);
    await client.request('POST', `${V1}/incident-ticket/resolve/${incident.id}`, {}, team.a.auth);
    expect((await escalate(team.b, incident.id)).status).toBe(409);
    expect((await escalate(team.b, 'INC-20260101-9999')).status).toBe(404);
  });

  it('keeps the delays of the levels after it from the escalation on', async () => {
    const incident = await openIncident(client, team.admin, 'search');
    const now = plus(incident.createdAt, 30_000);
    const reply = await at(client, now, () => escalate(team.a, incident.id));
    expect(reply.body.data.escalationLevel).toBe(2);
    await sweepAt(client, plus(incident.createdAt, MINUTE + 1_000));
    expect(await pagesTo(client, team.c, incident.id)).toEqual([]);
    await sweepAt(client, plus(incident.createdAt, 90_000 + 1_000));
    expect(await pagesTo(client, team.c, incident.id)).toHaveLength(1);
  });
});

describe('a member removed mid-rotation', () => {
  it('pages nobody for their turn, and the next level still follows', async () => {
    const leaver = await joinAs(client, team.admin, 'ENGINEER');
    const schedule = await weeklySchedule(client, team.admin, [leaver, team.a]);
    await serviceOf('mobile', [
      { delayMinutes: 0, targets: [{ type: 'schedule', id: schedule.id }] },
      { delayMinutes: 1, targets: [member(team.c)] },
    ]);
    const removed = await client.request(
      'DELETE',
      `${V1}/business/members/${leaver.user.id}`,
      undefined,
      team.admin.auth,
    );
    expect(removed.status, removed.text).toBe(200);
    const incident = await openIncident(client, team.admin, 'mobile');
    await client.stack.deliveriesIdle();
    expect(await pagesTo(client, leaver, incident.id)).toEqual([]);
    expect(await pagesTo(client, team.a, incident.id)).toEqual([]);
    await sweepAt(client, plus(incident.createdAt, MINUTE + 1_000));
    expect(await pagesTo(client, team.c, incident.id)).toHaveLength(1);
  });
});

describe('silent hours', () => {
  it('mute the level pages of LOW incidents, and let those of HIGH ones through', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Quiet Rotations' });
    const lead = await joinAs(client, admin, 'ENGINEER');
    const rule = { name: 'Always', startTime: '00:00', endTime: '00:00', timezone: 'UTC', teamScope: '*' };
    const quiet = { rules: [{ ...rule, daysOfWeek: [1, 2, 3, 4, 5, 6, 7] }] };
    expect((await client.request('POST', `${V1}/silent-hours`, quiet, admin.auth)).status).toBe(200);
    const levels = [
      { delayMinutes: 0, targets: [member(admin)] },
      { delayMinutes: 1, targets: [member(lead)] },
    ];
    const policy = await create(client, admin, '/escalation-policies', { name: 'Quiet', levels });
    await serviceWith(client, admin, 'reports', policy.id);
    const low = await openIncident(client, admin, 'reports', 'LOW');
    const high = await openIncident(client, admin, 'reports', 'HIGH');
    await sweepAt(client, plus(high.createdAt, MINUTE + 1_000));
    const pages = async (id: string) =>
      (await client.request('GET', `${V1}/incident-ticket/${id}/notifications`, undefined, admin.auth)).body.data
        .filter(({ event }: { event: string }) => event === 'ESCALATION')
        .map(({ recipient, status }: { recipient: string; status: string }) => [recipient, status]);
    expect(await pages(low.id)).toEqual([[lead.email, 'MUTED']]);
    expect(await pages(high.id)).toEqual([[lead.email, 'SENT']]);
    expect(await pagesTo(client, lead, high.id)).toHaveLength(1);
    expect(await pagesTo(client, admin, high.id)).toEqual([]);
  });
});
