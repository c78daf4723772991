import { expect } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { TestClient } from '../support/local-stack.ts';

/** Shared by the escalation-policy suites: a team of four, its requests, and sweeps on a fake clock. */
export const V1 = '/api/v1';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface PolicyTeam {
  admin: SignedIn;
  a: SignedIn;
  b: SignedIn;
  c: SignedIn;
  viewer: SignedIn;
}

export const policyTeam = async (client: TestClient, businessName: string): Promise<PolicyTeam> => {
  const admin = await signUpBusiness(client, { businessName });
  const [a, b, c, viewer] = await Promise.all([
    joinAs(client, admin, 'ENGINEER'),
    joinAs(client, admin, 'ENGINEER'),
    joinAs(client, admin, 'ENGINEER'),
    joinAs(client, admin, 'VIEWER'),
  ]);
  return { admin, a, b, c, viewer };
};

/** Runs the sweep's handler as the schedule would, the clock at `instant`, until the pages it caused are sent. */
export const sweepAt = async (client: TestClient, instant: Date, sweeps = 1): Promise<void> => {
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
  try {
    await Promise.all(Array.from({ length: sweeps }, () => slaSweep()));
    await client.stack.deliveriesIdle();
  } finally {
    installPorts(client.stack.ports);
  }
};

/** Runs `work` with the clock at `instant` (then the real one again), its pages delivered. */
export const at = async <T>(client: TestClient, instant: Date, work: () => Promise<T>): Promise<T> => {
  installPorts({ ...client.stack.ports, clock: { now: () => instant } });
  try {
    const result = await work();
    await client.stack.deliveriesIdle();
    return result;
  } finally {
    installPorts(client.stack.ports);
  }
};

export const create = async (client: TestClient, who: SignedIn, path: string, body: unknown) => {
  const reply = await client.request('POST', `${V1}${path}`, body, who.auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data as Record<string, any>;
};

/** A weekly rotation of `members` (in turn), its first turn from an hour ago. */
export const weeklySchedule = (client: TestClient, who: SignedIn, members: SignedIn[]) =>
  create(client, who, '/schedules', {
    name: 'Checkout primary',
    timezone: 'Europe/Berlin',
    layers: [
      {
        start: new Date(Date.now() - HOUR).toISOString(),
        rotationType: 'weekly',
        handoffTime: '09:00',
        members: members.map((member) => member.user.id),
      },
    ],
  });

/** A service of the map named `name` that pages by `policyId`. */
export const serviceWith = (client: TestClient, who: SignedIn, name: string, policyId: string) =>
  create(client, who, '/service-map', { name, escalationPolicyId: policyId });

export const openIncident = (client: TestClient, who: SignedIn, serviceArea: string, priority = 'HIGH') =>
  create(client, who, '/incident-ticket', { summary: `${serviceArea} is down`, priority, serviceArea });

export const incidentOf = async (client: TestClient, who: SignedIn, id: string) =>
  (await client.request('GET', `${V1}/incident-ticket/${id}`, undefined, who.auth)).body.data as Record<string, any>;

/** The subjects of the pages about `incidentId` that reached `who` (newest first); news of an acknowledgement left out. */
export const pagesTo = async (client: TestClient, who: SignedIn | string, incidentId: string): Promise<string[]> => {
  const email = typeof who === 'string' ? who : who.email;
  const reply = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
  return (reply.body.data as { subject: string }[])
    .map(({ subject }) => subject)
    .filter((subject) => subject.includes(incidentId) && !subject.includes(' acknowledged by '));
};

export const setStatus = async (client: TestClient, who: SignedIn, id: string, status: string) => {
  const reply = await client.request('PUT', `${V1}/incident-ticket/${id}`, { status }, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as Record<string, any>;
};

export const plus = (iso: string, ms: number): Date => new Date(Date.parse(iso) + ms);
