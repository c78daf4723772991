import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { startLocalStack } from '#infra/local/local-stack.ts';
import type { LocalStack } from '#infra/local/local-stack-shape.ts';
import { GENEROUS_RATE_LIMITS, requester, type HttpClient } from '../support/local-stack.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';
import { createFakeNetwork } from '../support/fake-network.ts';

const V1 = '/api/v1';

/**
 * The "done when", through the local server as `npm start` runs it: the workers on, the SLA sweep
 * every second, and a clock that a test moves forward instead of waiting a minute.
 */
let stack: LocalStack;
let client: HttpClient;
let ahead = 0;
let admin: SignedIn;
const alertEmail = 'alerts@heartbeat.example.com';

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    rateLimits: GENEROUS_RATE_LIMITS,
    workers: true,
    slaSweepSeconds: 1,
    network: createFakeNetwork(),
    clock: { now: () => new Date(Date.now() + ahead) },
  });
  client = { request: requester(stack.url) };
  admin = await signUpBusiness(client, { businessName: 'Watchers' });
  const setup = await client.request('POST', `${V1}/ims/setup`, { alertEmail, timezone: 'UTC' }, admin.auth);
  expect(setup.status, setup.text).toBe(201);
  await confirmOutsideAddress(client, alertEmail);
});

afterAll(async () => {
  await stack?.stop();
});

/** Polls `read` until it answers something `done` accepts, for at most `seconds` (the sweep runs every second). */
const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean, seconds = 20): Promise<T> => {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await delay(200);
  }
};

const incidents = async (): Promise<Record<string, any>[]> =>
  (await client.request('GET', `${V1}/incident-ticket?limit=100`, undefined, admin.auth)).body.data;

const pagesAbout = async (id: string): Promise<unknown[]> =>
  (
    (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(alertEmail)}`)).body.data as {
      subject: string;
    }[]
  ).filter(({ subject }) => subject.includes(id));

describe('heartbeats and maintenance windows through the local server', () => {
  it('a 60 s heartbeat never pinged opens one incident paging the alert address within 90 s; a ping resolves it', async () => {
    const created = await client.request(
      'POST',
      `${V1}/heartbeats`,
      { name: 'Nightly export', intervalSeconds: 60, graceSeconds: 0 },
      admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    ahead += 61_000;
    const opened = await eventually(incidents, (list) => list.length > 0);
    expect(opened).toHaveLength(1);
    const incident = opened[0] as Record<string, any>;
    expect(Date.parse(incident.createdAt) - Date.parse(created.body.data.createdAt)).toBeLessThan(90_000);
    expect(
      (
        await eventually(
          () => pagesAbout(incident.id),
          (pages) => pages.length > 0,
        )
      ).length,
    ).toBeGreaterThan(0);
    await delay(1500);
    expect(await incidents()).toHaveLength(1);

    const ping = await client.request('GET', new URL(created.body.data.pingUrl).pathname);
    expect(ping.status, ping.text).toBe(200);
    const resolved = await eventually(incidents, (list) => list[0]?.status === 'RESOLVED');
    expect(resolved[0]).toMatchObject({ id: incident.id, status: 'RESOLVED' });
  });

  it('an alert inside an active window opens nothing and pages nobody; the same alert after it opens one', async () => {
    const now = Date.now() + ahead;
    const body = (endsAt: number) => ({
      serviceIds: ['search'],
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      reason: 'Reindex',
    });
    const window = await client.request('POST', `${V1}/maintenance-windows`, body(now + 3600_000), admin.auth);
    expect(window.status, window.text).toBe(201);
    const before = (await incidents()).length;
    const mail = async () =>
      (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(alertEmail)}`)).body.data.length;
    const mailBefore = await mail();
    const alert = { name: 'Search latency', source: 'metrics-alerts', severity: 'HIGH', serviceId: 'search' };
    const during = await client.request('POST', `${V1}/signals`, alert, admin.auth);
    expect(during.status, during.text).toBe(201);
    const held = await eventually(
      async () =>
        (await client.request('GET', `${V1}/signals/${during.body.data.id}`, undefined, admin.auth)).body.data,
      (signal) => signal.status === 'RESOLVED',
    );
    expect(held.notes[0].text).toContain('maintenance window "Reindex"');
    await stack.deliveriesIdle();
    expect(await incidents()).toHaveLength(before);
    expect(await mail()).toBe(mailBefore);

    // Ended early: a PUT with an end of now.
    const ended = await client.request(
      'PUT',
      `${V1}/maintenance-windows/${window.body.data.id}`,
      body(Date.now() + ahead),
      admin.auth,
    );
    expect(ended.status, ended.text).toBe(200);
    ahead += 1000;
    const after = await client.request('POST', `${V1}/signals`, alert, admin.auth);
    expect(after.status, after.text).toBe(201);
    const list = await eventually(incidents, (items) => items.length > before);
    expect(list).toHaveLength(before + 1);
    expect(list[0]).toMatchObject({ status: 'OPEN', serviceArea: 'search' });
    expect(
      (
        await eventually(
          () => pagesAbout(list[0]?.id),
          (pages) => pages.length > 0,
        )
      ).length,
    ).toBeGreaterThan(0);
  });
});
