import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';
import { team as sharedTeam, type Team } from '../support/team.ts';

/* The escalation tests' stack and helpers: a team with SLAs and escalation on, sweeps at a given instant. */
export const V1 = '/api/v1';
export const INCIDENTS = `${V1}/incident-ticket`;
export const MINUTE = 60_000;

/** The file's stack, a live binding read by the tests after `setUpEscalationStack`'s hooks have run. */
export let client: TestClient;

/** One stack for the file, its real clock back after every test. */
export const setUpEscalationStack = (): void => {
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterEach(() => installPorts(client.stack.ports));
  afterAll(async () => {
    await client?.stack.stop();
  });
};

/**
 * Runs the sweep's Lambda handler as the schedule would, with the clock standing at `instant` until the pages
 * it caused are delivered; then the real clock again, for the requests that follow.
 */
export const sweepAt = async (instant: Date): Promise<void> => {
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
export const clockAt = (instant: Date): void => {
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
};

export type { Team };

/**
 * The shared team (test/support/team.ts) on UTC's clock with SLAs and escalation on, and a policy for HIGH and
 * MEDIUM incidents of every team wanting a response within a minute, escalating to `contact`.
 */
export const team = async (name: string, contact: (team: Team) => string): Promise<Team> => {
  const created = await sharedTeam(client, name, { timezone: 'UTC', slaEnabled: true, autoEscalate: true });
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
      created.admin.auth,
    );
    expect(policy.status, policy.text).toBe(201);
  }
  // An outside contact confirms, as its owner would, before it is paged (the alert address already has).
  const address = contact(created);
  if (address.includes('@') && address !== created.onCall.email && address !== created.alertEmail) {
    await confirmOutsideAddress(client, address);
  }
  return created;
};

export const openIncident = async (who: SignedIn, priority: string, summary: string): Promise<Record<string, any>> => {
  const reply = await client.request('POST', INCIDENTS, { summary, priority, serviceArea: 'checkout' }, who.auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};

export const incidentOf = async (who: SignedIn, id: string): Promise<Record<string, any>> =>
  (await client.request('GET', `${INCIDENTS}/${id}`, undefined, who.auth)).body.data;

export const mailTo = async (email: string, about: string): Promise<{ subject: string; text: string }[]> =>
  (
    (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as {
      subject: string;
      text: string;
    }[]
  ).filter(({ subject }) => subject.includes(about));

export const escalationsTo = async (email: string, incidentId: string) =>
  (await mailTo(email, incidentId)).filter(({ subject }) => subject.includes('not acknowledged'));

export const notificationsOf = async (who: SignedIn, id: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${INCIDENTS}/${id}/notifications`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

export const historyOf = async (who: SignedIn, id: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${V1}/tickets/history?ticketId=${id}&limit=100`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** The acknowledge link a mail carries, as a path on this server. */
export const ackPathIn = (mail: { text: string }): string => {
  const url = /Acknowledge: (\S+)/.exec(mail.text)?.[1];
  if (!url) throw new Error(`no acknowledge link in: ${mail.text}`);
  return new URL(url).pathname;
};

export const createdPlus = (incident: Record<string, any>, ms: number): Date =>
  new Date(Date.parse(incident.createdAt) + ms);
