import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { signConfirmation } from '#lib/workspaces/outside-address-token.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { CONFIRM, confirmationMailsTo } from '../support/outside-addresses.ts';

const V1 = '/api/v1';
const PARTNER = 'partner@outside.example';

let client: TestClient;
let admin: SignedIn;

beforeAll(async () => {
  client = await startTestStack();
  admin = await workspace('Relay Corp');
});

afterAll(async () => {
  installPorts(client.stack.ports);
  await client?.stack.stop();
});

/** A workspace with SLAs and escalation on, whose alert address is its ADMIN's own (a member's: no confirmation). */
async function workspace(businessName: string): Promise<SignedIn> {
  const owner = await signUpBusiness(client, { businessName, firstName: 'Ada', lastName: 'Admin' });
  const setup = await client.request(
    'POST',
    `${V1}/ims/setup`,
    { alertEmail: owner.email, timezone: 'UTC', slaEnabled: true, autoEscalate: true },
    owner.auth,
  );
  expect(setup.status, setup.text).toBe(201);
  return owner;
}

const policy = (escalationContact: string) => ({
  name: 'High, everyone',
  priority: 'HIGH',
  responseTimeMinutes: 1,
  responseThreshold: 90,
  resolveTimeMinutes: 60,
  resolveThreshold: 90,
  escalationContact,
  applicableTeam: '*',
  uptimeTarget: 99.9,
});

const namePolicy = async (who: SignedIn, contact: string): Promise<string> => {
  const reply = await client.request('POST', `${V1}/sla-policies`, policy(contact), who.auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.id;
};

const outsideAddresses = async (who: SignedIn): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${V1}/business/outside-addresses`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

const statusOf = async (who: SignedIn, address: string) =>
  (await outsideAddresses(who)).find((named) => named.address === address)?.status;

/** Everything mailed to `address` about `incidentId`. */
const pagesTo = async (address: string, incidentId: string): Promise<{ subject: string; text: string }[]> =>
  (
    (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(address)}`)).body.data as {
      subject: string;
      text: string;
    }[]
  ).filter(({ subject }) => subject.includes(incidentId));

/** Opens a HIGH incident and runs the SLA sweep past its response deadline: an escalation to the contact. */
const escalatedIncident = async (who: SignedIn): Promise<string> => {
  const opened = await client.request(
    'POST',
    `${V1}/incident-ticket`,
    { summary: 'Checkout down', priority: 'HIGH', serviceArea: 'checkout' },
    who.auth,
  );
  expect(opened.status, opened.text).toBe(201);
  const instant = new Date(Date.parse(opened.body.data.createdAt) + 61_000);
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
  try {
    await slaSweep();
    await client.stack.deliveriesIdle();
  } finally {
    installPorts(client.stack.ports);
  }
  return opened.body.data.id;
};

const tokenOf = async (address: string): Promise<string> => {
  const [mail] = await confirmationMailsTo(client, address);
  if (!mail?.token) throw new Error(`no confirmation mail to ${address}`);
  return mail.token;
};

describe('an outside address confirms before it is paged', () => {
  let policyId: string;

  it('naming it mails it one confirmation in words, and naming it again soon mails nothing more', async () => {
    policyId = await namePolicy(admin, PARTNER);
    const replaced = await client.request('PUT', `${V1}/sla-policies/${policyId}`, policy(PARTNER), admin.auth);
    expect(replaced.status, replaced.text).toBe(200);
    const mails = await confirmationMailsTo(client, PARTNER);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Relay Corp asks to send incident alerts to this address');
    expect(mails[0]?.text).toContain('Ada Admin, an administrator of Relay Corp');
    expect(mails[0]?.text).toContain('escalation contact of the SLA policy High, everyone');
    expect(mails[0]?.text).toMatch(new RegExp(`${CONFIRM}/[\\w-]+\\.[\\w-]+\\.[\\w-]+`));
    expect(mails[0]?.text).not.toContain(admin.user.businessId as string);
    expect(await outsideAddresses(admin)).toMatchObject([
      { address: PARTNER, status: 'PENDING', namedBy: 'Ada Admin' },
    ]);
  });

  it('until it confirms, an escalation records it UNCONFIRMED and sends it nothing', async () => {
    const incidentId = await escalatedIncident(admin);
    expect(await pagesTo(PARTNER, incidentId)).toEqual([]);
    expect(await pagesTo(admin.email, incidentId)).not.toEqual([]);
    const notifications = await client.request(
      'GET',
      `${V1}/incident-ticket/${incidentId}/notifications`,
      undefined,
      admin.auth,
    );
    const held = notifications.body.data.filter(({ recipient }: { recipient: string }) => recipient === PARTNER);
    // One message for the escalation and the breach of the same deadline (docs/decisions.md, issue 42).
    expect(held.map(({ event }: { event: string }) => event)).toEqual(['ESCALATION']);
    for (const delivery of held) {
      expect(delivery).toMatchObject({
        status: 'UNCONFIRMED',
        attempts: [{ detail: expect.stringContaining('waiting for the address to confirm') }],
      });
    }
  });

  it('opening the link changes nothing; the button confirms; then pages reach it', async () => {
    const link = `${CONFIRM}/${await tokenOf(PARTNER)}`;
    const shown = await client.request('GET', link);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shown.text).toContain('<form method="post">');
    expect(shown.text).toContain('Relay Corp');
    expect(await statusOf(admin, PARTNER)).toBe('PENDING');

    const confirmed = await client.request('POST', link);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await statusOf(admin, PARTNER)).toBe('CONFIRMED');

    const incidentId = await escalatedIncident(admin);
    expect((await pagesTo(PARTNER, incidentId)).map(({ subject }) => subject)).toEqual([
      `[HIGH] ${incidentId} not acknowledged, escalation 1: Checkout down`,
    ]);
    // Its acknowledge link acts for it, as a confirmed escalation contact's does.
    const [page] = await pagesTo(PARTNER, incidentId);
    const ackUrl = /Acknowledge: (\S+)/.exec(page?.text ?? '')?.[1] as string;
    const acknowledged = await client.request('POST', new URL(ackUrl).pathname);
    expect(acknowledged.status, acknowledged.text).toBe(200);
  });

  it('an expired or altered link answers a 4xx page and confirms nothing', async () => {
    const late = 'late@outside.example';
    await namePolicy(admin, late);
    const token = await tokenOf(late);
    const expired = await signConfirmation(client.stack.ports.signingKeys, {
      workspaceId: admin.user.businessId as string,
      address: late,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const altered = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    for (const bad of [expired, altered]) {
      for (const method of ['GET', 'POST']) {
        const reply = await client.request(method, `${CONFIRM}/${bad}`);
        expect(reply.status, reply.text).toBe(400);
        expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
      }
    }
    expect(await statusOf(admin, late)).toBe('PENDING');
  });

  it("one workspace's link confirms the address for that workspace alone", async () => {
    const shared = 'shared@outside.example';
    const other = await workspace('Other Corp');
    await namePolicy(other, shared);
    await namePolicy(admin, shared);
    const [relayMail, otherMail] = await confirmationMailsTo(client, shared);
    expect(relayMail?.subject).toContain('Relay Corp');
    expect(otherMail?.subject).toContain('Other Corp');
    expect((await client.request('POST', `${CONFIRM}/${relayMail?.token}`)).status).toBe(200);
    expect(await statusOf(admin, shared)).toBe('CONFIRMED');
    expect(await statusOf(other, shared)).toBe('PENDING');
  });

  it('an outside alert address set by an ADMIN gets its confirmation mail too', async () => {
    const alerts = 'alerts@outside.example';
    const changed = await client.request('PUT', `${V1}/ims/config`, { alertEmail: alerts }, admin.auth);
    expect(changed.status, changed.text).toBe(200);
    const [mail] = await confirmationMailsTo(client, alerts);
    expect(mail?.text).toContain('as the alert address of the workspace');
    expect(await statusOf(admin, alerts)).toBe('PENDING');
    const back = await client.request('PUT', `${V1}/ims/config`, { alertEmail: admin.email }, admin.auth);
    expect(back.status, back.text).toBe(200);
  });
});
