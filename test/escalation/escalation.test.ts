import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import { signAckLink, verifyAckLink } from '#lib/notifications/ack-token.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';
import { textOf } from '../support/pdf-text.ts';

const V1 = '/api/v1';
const INCIDENTS = `${V1}/incident-ticket`;
const MINUTE = 60_000;

let client: TestClient;

beforeAll(async () => {
  client = await startTestStack();
});

afterEach(() => installPorts(client.stack.ports));

afterAll(async () => {
  await client?.stack.stop();
});

/**
 * Runs the sweep's Lambda handler as the schedule would, with the clock standing at `instant` until the pages
 * it caused are delivered; then the real clock again, for the requests that follow.
 */
const sweepAt = async (instant: Date): Promise<void> => {
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
  try {
    await slaSweep();
    await client.stack.deliveriesIdle();
  } finally {
    installPorts(client.stack.ports);
  }
};

/** Requests from now on see the clock at `instant`. */
const clockAt = (instant: Date): void => {
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
};

interface Team {
  admin: SignedIn;
  onCall: SignedIn;
  alertEmail: string;
}

const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * A workspace with SLAs and escalation on, an ENGINEER on call all of today (UTC), and a policy for HIGH and
 * MEDIUM incidents of every team wanting a response within a minute, escalating to `contact`.
 */
const team = async (name: string, contact: (team: Team) => string): Promise<Team> => {
  const admin = await signUpBusiness(client, { businessName: name });
  const alertEmail = `alerts-${name.toLowerCase()}@example.com`;
  const setup = await client.request(
    'POST',
    `${V1}/ims/setup`,
    { alertEmail, timezone: 'UTC', slaEnabled: true, autoEscalate: true },
    admin.auth,
  );
  expect(setup.status, setup.text).toBe(201);
  const onCall = await joinAs(client, admin, 'ENGINEER');
  const assigned = await client.request(
    'POST',
    `${V1}/assign-member`,
    { userId: onCall.user.id, date: today(), startTime: '00:00', endTime: '24:00' },
    admin.auth,
  );
  expect(assigned.status, assigned.text).toBe(201);
  const created = { admin, onCall, alertEmail };
  for (const priority of ['HIGH', 'MEDIUM']) {
    const policy = await client.request(
      'POST',
      `${V1}/sla-policies`,
      {
        name: `${priority}, everyone`,
        priority,
        responseTimeMinutes: 1,
        responseThreshold: 90,
        resolveTimeMinutes: 60,
        resolveThreshold: 90,
        escalationContact: contact(created),
        applicableTeam: '*',
        uptimeTarget: 99.9,
      },
      admin.auth,
    );
    expect(policy.status, policy.text).toBe(201);
  }
  // The alert address and an outside contact confirm, as their owners would, before they are paged.
  const outside = [alertEmail, contact(created)].filter((name) => name.includes('@') && name !== onCall.email);
  for (const address of new Set(outside)) await confirmOutsideAddress(client, address);
  return created;
};

const openIncident = async (who: SignedIn, priority: string, summary: string): Promise<Record<string, any>> => {
  const reply = await client.request('POST', INCIDENTS, { summary, priority, serviceArea: 'checkout' }, who.auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};

const incidentOf = async (who: SignedIn, id: string): Promise<Record<string, any>> =>
  (await client.request('GET', `${INCIDENTS}/${id}`, undefined, who.auth)).body.data;

const mailTo = async (email: string, about: string): Promise<{ subject: string; text: string }[]> =>
  (
    (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as {
      subject: string;
      text: string;
    }[]
  ).filter(({ subject }) => subject.includes(about));

const escalationsTo = async (email: string, incidentId: string) =>
  (await mailTo(email, incidentId)).filter(({ subject }) => subject.includes('not acknowledged'));

const notificationsOf = async (who: SignedIn, id: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${INCIDENTS}/${id}/notifications`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

const historyOf = async (who: SignedIn, id: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${V1}/tickets/history?ticketId=${id}&limit=100`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** The acknowledge link a mail carries, as a path on this server. */
const ackPathIn = (mail: { text: string }): string => {
  const url = /Acknowledge: (\S+)/.exec(mail.text)?.[1];
  if (!url) throw new Error(`no acknowledge link in: ${mail.text}`);
  return new URL(url).pathname;
};

const createdPlus = (incident: Record<string, any>, ms: number): Date => new Date(Date.parse(incident.createdAt) + ms);

describe('escalation until acknowledged', () => {
  let ops: Team;
  let incident: Record<string, any>;
  let firstLink: string;

  beforeAll(async () => {
    ops = await team('Nightshift', () => 'lead@nightshift.example.com');
    incident = await openIncident(ops.admin, 'HIGH', 'Checkout down');
  });

  it('sends nothing before the response deadline', async () => {
    await sweepAt(createdPlus(incident, 59_000));
    expect(await escalationsTo('lead@nightshift.example.com', incident.id)).toEqual([]);
    expect((await incidentOf(ops.admin, incident.id)).escalationCount).toBeUndefined();
  });

  it('escalates once past the deadline, however many sweeps run at that instant', async () => {
    const instant = createdPlus(incident, MINUTE + 1_000);
    const clock: Clock = { now: () => instant };
    installPorts({ ...client.stack.ports, clock });
    await Promise.all([slaSweep(), slaSweep()]);
    await slaSweep();
    await client.stack.deliveriesIdle();
    installPorts(client.stack.ports);

    const lead = await escalationsTo('lead@nightshift.example.com', incident.id);
    expect(lead).toHaveLength(1);
    expect(lead[0]?.subject).toBe(`[HIGH] ${incident.id} not acknowledged, escalation 1: Checkout down`);
    expect(await escalationsTo(ops.onCall.email, incident.id)).toHaveLength(1);
    expect(await escalationsTo(ops.alertEmail, incident.id)).toHaveLength(1);
    firstLink = ackPathIn(lead[0] as { text: string });
    expect(firstLink).toMatch(/^\/api\/v1\/ack\/[\w-]+\.[\w-]+\.[\w-]+$/);

    expect(await incidentOf(ops.admin, incident.id)).toMatchObject({
      status: 'OPEN',
      escalationCount: 1,
      lastEscalatedAt: createdPlus(incident, MINUTE).toISOString(),
    });
    const escalations = (await notificationsOf(ops.admin, incident.id)).filter(
      ({ event }) => event === 'UNACKNOWLEDGED',
    );
    expect(escalations.map(({ recipient }) => recipient).sort()).toEqual(
      [ops.alertEmail, ops.onCall.email, 'lead@nightshift.example.com'].sort(),
    );
    expect(escalations.every(({ status, attempts }) => status === 'SENT' && attempts.length === 1)).toBe(true);
    const history = (await historyOf(ops.admin, incident.id)).filter(({ event }) => event === 'ESCALATION');
    expect(history).toMatchObject([{ event: 'ESCALATION', to: '1', actor: 'system' }]);
  });

  it('tells the same people of the response breach, once', async () => {
    await sweepAt(createdPlus(incident, MINUTE + 5_000));
    const breach = (await mailTo('lead@nightshift.example.com', incident.id)).filter(({ subject }) =>
      subject.includes('missed its SLA response target'),
    );
    expect(breach).toHaveLength(1);
    const deliveries = (await notificationsOf(ops.admin, incident.id)).filter(
      ({ event }) => event === 'RESPONSE_BREACHED',
    );
    expect(deliveries.map(({ recipient }) => recipient).sort()).toEqual(
      [ops.alertEmail, ops.onCall.email, 'lead@nightshift.example.com'].sort(),
    );
  });

  it('escalates again after the interval, then the link acknowledges and the escalations stop', async () => {
    await sweepAt(createdPlus(incident, 2 * MINUTE + 1_000));
    const lead = await escalationsTo('lead@nightshift.example.com', incident.id);
    expect(lead.map(({ subject }) => subject)).toEqual([
      `[HIGH] ${incident.id} not acknowledged, escalation 2: Checkout down`,
      `[HIGH] ${incident.id} not acknowledged, escalation 1: Checkout down`,
    ]);
    const secondLink = ackPathIn(lead[0] as { text: string });

    const page = await client.request('GET', secondLink);
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<form method="post">');
    expect(page.text).toContain('Acknowledge as lead@nightshift.example.com');
    expect((await incidentOf(ops.admin, incident.id)).status).toBe('OPEN');

    const acknowledged = await client.request('POST', secondLink);
    expect(acknowledged.status, acknowledged.text).toBe(200);
    expect(acknowledged.text).toContain('Acknowledged by lead@nightshift.example.com');
    const now = await incidentOf(ops.admin, incident.id);
    expect(now).toMatchObject({
      status: 'ACKNOWLEDGED',
      acknowledgedBy: 'lead@nightshift.example.com',
      acknowledgedVia: 'email',
      slaResponse: 'BREACHED',
    });

    const change = (await historyOf(ops.admin, incident.id)).find(({ event }) => event === 'STATUS_CHANGE');
    expect(change).toMatchObject({
      from: 'OPEN',
      to: 'ACKNOWLEDGED',
      actor: 'lead@nightshift.example.com',
      message: 'through the e-mail acknowledge link',
    });
    const used = (await notificationsOf(ops.admin, incident.id)).filter(({ acknowledgedAt }) => acknowledgedAt);
    expect(used).toMatchObject([
      { event: 'UNACKNOWLEDGED', channel: 'email', recipient: 'lead@nightshift.example.com' },
    ]);

    await sweepAt(createdPlus(incident, 3 * MINUTE + 1_000));
    expect(await escalationsTo('lead@nightshift.example.com', incident.id)).toHaveLength(2);
    expect((await incidentOf(ops.admin, incident.id)).escalationCount).toBe(2);
  });

  it('changes nothing when the same link is used again; another link says who acknowledged', async () => {
    const lead = await escalationsTo('lead@nightshift.example.com', incident.id);
    const again = await client.request('POST', ackPathIn(lead[0] as { text: string }));
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors).toEqual(['token: used already']);

    const other = await client.request('GET', firstLink);
    expect(other.status).toBe(200);
    expect(other.text).toContain('Already acknowledged');
    expect(other.text).toContain('Acknowledged by lead@nightshift.example.com');
    const late = await client.request('POST', firstLink);
    expect(late.status).toBe(200);
    expect(late.text).toContain('Already acknowledged');
    expect(await incidentOf(ops.admin, incident.id)).toMatchObject({
      status: 'ACKNOWLEDGED',
      acknowledgedBy: 'lead@nightshift.example.com',
    });
    const changes = (await historyOf(ops.admin, incident.id)).filter(({ event }) => event === 'STATUS_CHANGE');
    expect(changes).toHaveLength(1);
  });

  it('shows the escalations and the acknowledgement in the PDF', async () => {
    const reply = await fetch(`${client.stack.url}${INCIDENTS}/generate-pdf`, {
      method: 'POST',
      headers: { ...ops.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ incidentId: incident.id }),
    });
    expect(reply.status).toBe(200);
    const text = textOf(Buffer.from(await reply.arrayBuffer())).replace(/\s+/g, ' ');
    expect(text).toContain('Escalated: not acknowledged');
    expect(text).toContain('through the e-mail acknowledge link');
  });
});

describe('acknowledge links that do not hold', () => {
  let ops: Team;
  let incident: Record<string, any>;
  let link: string;

  beforeAll(async () => {
    ops = await team('Forgery', ({ onCall }) => onCall.user.id);
    incident = await openIncident(ops.admin, 'HIGH', 'Payments slow');
    await sweepAt(createdPlus(incident, MINUTE + 1_000));
    const mail = await escalationsTo(ops.onCall.email, incident.id);
    expect(mail).toHaveLength(1);
    link = ackPathIn(mail[0] as { text: string });
  });

  it('pages a member named by id as the escalation contact, once per address', async () => {
    const escalations = (await notificationsOf(ops.admin, incident.id)).filter(
      ({ event, channel }) => event === 'UNACKNOWLEDGED' && channel === 'email',
    );
    expect(escalations.map(({ recipient }) => recipient).sort()).toEqual([ops.alertEmail, ops.onCall.email].sort());
  });

  it('refuses a tampered token', async () => {
    const [payload, kid, mac] = (link.split('/').pop() as string).split('.');
    const altered = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8'));
    altered.b = 'mallory@example.com';
    const forged = `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${kid}.${mac}`;
    for (const method of ['GET', 'POST']) {
      const reply = await client.request(method, `${V1}/ack/${forged}`);
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.errors).toEqual(['token: not a link this service made']);
    }
    expect((await client.request('POST', `${V1}/ack/not-a-token`)).status).toBe(400);
    expect((await incidentOf(ops.admin, incident.id)).status).toBe('OPEN');
  });

  it('refuses a token naming another workspace', async () => {
    const stranger = await signUpBusiness(client, { businessName: 'Elsewhere' });
    const token = link.split('/').pop() as string;
    const genuine = await verifyAckLink(client.stack.ports.signingKeys, token);
    expect(genuine?.workspaceId).toBe(ops.admin.user.businessId);
    const swapped = JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8'));
    swapped.w = stranger.user.businessId;
    const [, kid, mac] = token.split('.');
    const moved = `${Buffer.from(JSON.stringify(swapped)).toString('base64url')}.${kid}.${mac}`;
    expect((await client.request('POST', `${V1}/ack/${moved}`)).status).toBe(400);

    const signedForOther = await signAckLink(client.stack.ports.signingKeys, {
      ...(genuine as NonNullable<typeof genuine>),
      linkId: 'another-link',
      workspaceId: stranger.user.businessId as string,
    });
    const reply = await client.request('POST', `${V1}/ack/${signedForOther}`);
    expect(reply.status, reply.text).toBe(404);
    expect((await incidentOf(ops.admin, incident.id)).status).toBe('OPEN');
  });

  it('refuses an expired token, and leaves the incident OPEN', async () => {
    clockAt(new Date(Date.now() + 25 * 60 * MINUTE));
    const reply = await client.request('POST', link);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors[0]).toMatch(/^token: expired at /);
    installPorts(client.stack.ports);
    expect((await incidentOf(ops.admin, incident.id)).status).toBe('OPEN');
    const fresh = await client.request('POST', link);
    expect(fresh.status, fresh.text).toBe(200);
    expect(await incidentOf(ops.admin, incident.id)).toMatchObject({
      status: 'ACKNOWLEDGED',
      acknowledgedBy: ops.onCall.email,
      acknowledgedVia: 'email',
    });
  });
});

describe('silent hours and escalation', () => {
  it('mute LOW and MEDIUM escalations; HIGH ones get through', async () => {
    const ops = await team('Quiet', () => 'lead@quiet.example.com');
    const silence = await client.request(
      'POST',
      `${V1}/silent-hours`,
      {
        rules: [
          {
            name: 'Always quiet',
            startTime: '00:00',
            endTime: '00:00',
            timezone: 'UTC',
            daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
            teamScope: '*',
          },
        ],
      },
      ops.admin.auth,
    );
    expect(silence.status, silence.text).toBe(200);
    const medium = await openIncident(ops.admin, 'MEDIUM', 'Search slow');
    const high = await openIncident(ops.admin, 'HIGH', 'Search down');
    await sweepAt(createdPlus(high, MINUTE + 1_000));

    expect(await escalationsTo('lead@quiet.example.com', medium.id)).toEqual([]);
    const muted = (await notificationsOf(ops.admin, medium.id)).filter(({ event }) => event === 'UNACKNOWLEDGED');
    expect(muted.length).toBeGreaterThan(0);
    expect(muted.every(({ status }) => status === 'MUTED')).toBe(true);

    expect(await escalationsTo('lead@quiet.example.com', high.id)).toHaveLength(1);
    const sent = (await notificationsOf(ops.admin, high.id)).filter(({ event }) => event === 'UNACKNOWLEDGED');
    expect(sent.every(({ status }) => status === 'SENT')).toBe(true);
    const opened = (await notificationsOf(ops.admin, high.id)).filter(({ event }) => event === 'OPENED');
    expect(opened.every(({ status }) => status === 'MUTED')).toBe(true);
  });
});

describe('escalation switched off', () => {
  it('escalates nothing without autoEscalate, and uses the default deadline without a policy', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Calm' });
    const setup = await client.request(
      'POST',
      `${V1}/ims/setup`,
      { alertEmail: 'alerts-calm@example.com', timezone: 'UTC' },
      admin.auth,
    );
    expect(setup.status, setup.text).toBe(201);
    await confirmOutsideAddress(client, 'alerts-calm@example.com');
    const incident = await openIncident(admin, 'HIGH', 'Login errors');
    await sweepAt(createdPlus(incident, 60 * MINUTE));
    expect((await incidentOf(admin, incident.id)).escalationCount).toBeUndefined();

    const on = await client.request('PUT', `${V1}/ims/config`, { autoEscalate: true }, admin.auth);
    expect(on.status, on.text).toBe(200);
    await sweepAt(createdPlus(incident, 15 * MINUTE));
    expect((await incidentOf(admin, incident.id)).escalationCount).toBeUndefined();
    await sweepAt(createdPlus(incident, 15 * MINUTE + 1_000));
    expect(await escalationsTo('alerts-calm@example.com', incident.id)).toHaveLength(1);
  });
});
