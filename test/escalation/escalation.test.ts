import { beforeAll, describe, expect, it } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import { signAckLink, verifyAckLink } from '#lib/notifications/ack-token.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { signUpBusiness } from '../support/accounts.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';
import { textOf } from '../support/pdf-text.ts';
import {
  ackPathIn,
  clockAt,
  client,
  createdPlus,
  escalationsTo,
  historyOf,
  INCIDENTS,
  incidentOf,
  MINUTE,
  mailTo,
  notificationsOf,
  openIncident,
  setUpEscalationStack,
  sweepAt,
  type Team,
  team,
  V1,
} from './escalation-support.ts';

setUpEscalationStack();

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
    const escalations = (await notificationsOf(ops.admin, incident.id)).filter(({ event }) => event === 'ESCALATION');
    expect(escalations.map(({ recipient }) => recipient).sort()).toEqual(
      [ops.alertEmail, ops.onCall.email, 'lead@nightshift.example.com'].sort(),
    );
    expect(escalations.every(({ status, attempts }) => status === 'SENT' && attempts.length === 1)).toBe(true);
    const history = (await historyOf(ops.admin, incident.id)).filter(({ event }) => event === 'ESCALATION');
    expect(history).toMatchObject([{ event: 'ESCALATION', to: '1', actor: 'system' }]);
  });

  it('says the response breach once, in the escalation of the same deadline, not in a second mail', async () => {
    await sweepAt(createdPlus(incident, MINUTE + 5_000));
    const lead = await mailTo('lead@nightshift.example.com', incident.id);
    expect(lead.filter(({ subject }) => subject.includes('missed its SLA response target'))).toEqual([]);
    const [escalation] = lead.filter(({ subject }) => subject.includes('not acknowledged, escalation 1'));
    expect(escalation?.text).toContain('SLA: the response target was missed');
    const deliveries = (await notificationsOf(ops.admin, incident.id)).filter(
      ({ event }) => event === 'RESPONSE_BREACHED',
    );
    expect(deliveries).toEqual([]);
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
    expect(used).toMatchObject([{ event: 'ESCALATION', channel: 'email', recipient: 'lead@nightshift.example.com' }]);

    await sweepAt(createdPlus(incident, 3 * MINUTE + 1_000));
    expect(await escalationsTo('lead@nightshift.example.com', incident.id)).toHaveLength(2);
    expect((await incidentOf(ops.admin, incident.id)).escalationCount).toBe(2);
  });

  it('changes nothing when the same link is used again; another link says who acknowledged', async () => {
    const lead = await escalationsTo('lead@nightshift.example.com', incident.id);
    const again = await client.request('POST', ackPathIn(lead[0] as { text: string }));
    expect(again.status, again.text).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.text).toContain('It was used by lead@nightshift.example.com at ');

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
      ({ event, channel }) => event === 'ESCALATION' && channel === 'email',
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
      expect(reply.text).toContain('This link is not valid');
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
    expect(reply.text).toContain('This link has expired');
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
    const muted = (await notificationsOf(ops.admin, medium.id)).filter(({ event }) => event === 'ESCALATION');
    expect(muted.length).toBeGreaterThan(0);
    expect(muted.every(({ status }) => status === 'MUTED')).toBe(true);

    expect(await escalationsTo('lead@quiet.example.com', high.id)).toHaveLength(1);
    const sent = (await notificationsOf(ops.admin, high.id)).filter(({ event }) => event === 'ESCALATION');
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
    // Escalation counts from the moment it was turned on (docs/escalation.md).
    const late = Date.parse(on.body.data.autoEscalateSince) - Date.parse(incident.createdAt);
    await sweepAt(createdPlus(incident, 15 * MINUTE + late));
    expect((await incidentOf(admin, incident.id)).escalationCount).toBeUndefined();
    await sweepAt(createdPlus(incident, 15 * MINUTE + late + 1_000));
    expect(await escalationsTo('alerts-calm@example.com', incident.id)).toHaveLength(1);
  });
});
