import { expect } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import type { TestClient } from '../support/local-stack.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';

export const V1 = '/api/v1';

/** Requests from now on see the clock at `instant`; `undefined` puts the real clock back. */
export const clockAt = (client: TestClient, instant: Date | undefined): void => {
  if (!instant) {
    installPorts(client.stack.ports);
    return;
  }
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
};

/**
 * Runs the sweep's Lambda handler as the schedule would with the clock at `instant`, then lets the
 * correlation worker and the pages it caused finish, and puts the real clock back.
 */
export const sweepAt = async (client: TestClient, worker: QueuePoller, instant: Date): Promise<void> => {
  clockAt(client, instant);
  try {
    await slaSweep();
    await worker.idle();
    await client.stack.deliveriesIdle();
  } finally {
    clockAt(client, undefined);
  }
};

export interface Team {
  admin: SignedIn;
  alertEmail: string;
}

/** A workspace whose incidents page `alertEmail` (and nobody else: no SLA policies, no one on call). */
export const team = async (client: TestClient, name: string): Promise<Team> => {
  const admin = await signUpBusiness(client, { businessName: name });
  const alertEmail = `alerts-${name.toLowerCase().replace(/\W+/g, '-')}@example.com`;
  const setup = await client.request('POST', `${V1}/ims/setup`, { alertEmail, timezone: 'UTC' }, admin.auth);
  expect(setup.status, setup.text).toBe(201);
  await confirmOutsideAddress(client, alertEmail);
  return { admin, alertEmail };
};

/** The pages mailed to `email`, newest first (its confirmation mail left out). */
export const mailTo = async (client: TestClient, email: string): Promise<{ subject: string; text: string }[]> =>
  (
    (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as {
      subject: string;
      text: string;
    }[]
  ).filter(({ subject }) => !subject.includes('asks to send incident alerts'));

export const incidentsOf = async (client: TestClient, who: SignedIn): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${V1}/incident-ticket?limit=100`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};
