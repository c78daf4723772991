import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { ADMIN_NAME, fullName, joinAs } from '../support/accounts.ts';
import { INCIDENTS, V1, alertmanagerAlert, incidentFromAlert } from '../notifications/support.ts';
import { team, type Team } from '../support/team.ts';

let client: TestClient;
let ops: Team;
/** The devices the first page reached and its incident, for the tests that follow it. */
const paged = { phone: { endpoint: '' }, laptop: { endpoint: '' }, incidentId: '' };

/** A test subscription of the local push service stand-in: it keeps the private keys and decrypts what arrives. */
const standInSubscription = async (): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }> => {
  const reply = await client.request('POST', '/_local/push/subscriptions');
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

const received = async (endpoint: string): Promise<Record<string, any>[]> =>
  (await client.request('GET', new URL(endpoint).pathname)).body.data;

/**
 * A first page through the whole path, to a device turned off again and an incident resolved, so the timed page
 * meets a warm stack, as a running `npm start` is after its first page (each function's modules load once).
 */
const warmUp = async () => {
  const device = await client.request('POST', `${V1}/push/subscriptions`, await standInSubscription(), ops.onCall.auth);
  const startsAt = new Date(Date.now() - 60 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const first = await incidentFromAlert(client, ops, startsAt);
  await client.stack.deliveriesIdle();
  await client.request('POST', `${INCIDENTS}/resolve/${first.id}`, {}, ops.admin.auth);
  await client.request('DELETE', `${V1}/push/subscriptions/${device.body.data.id}`, undefined, ops.onCall.auth);
  await client.stack.deliveriesIdle();
};

beforeAll(async () => {
  client = await startTestStack(':memory:', undefined, { workers: true });
  ops = await team(client, 'Pushers');
  await warmUp();
});

afterAll(async () => {
  await client?.stack.stop();
});

describe('turning push on and off', () => {
  it('hands out the VAPID public key: an uncompressed P-256 point, the same on every call', async () => {
    const first = await client.request('GET', `${V1}/push/vapid-public-key`, undefined, ops.onCall.auth);
    expect(first.status, first.text).toBe(200);
    const key = Buffer.from(first.body.data.publicKey, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    const again = await client.request('GET', `${V1}/push/vapid-public-key`, undefined, ops.admin.auth);
    expect(again.body.data.publicKey).toBe(first.body.data.publicKey);
    expect((await client.request('GET', `${V1}/push/vapid-public-key`)).status).toBe(401);
  });

  it("takes the browser's PushSubscription JSON and answers the push service's host only", async () => {
    const subscription = await standInSubscription();
    const reply = await client.request('POST', `${V1}/push/subscriptions`, subscription, ops.admin.auth);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{32}$/),
      endpointHost: new URL(subscription.endpoint).host,
      createdAt: expect.any(String),
    });
    const again = await client.request('POST', `${V1}/push/subscriptions`, subscription, ops.admin.auth);
    expect(again.body.data.id).toBe(reply.body.data.id);
    const off = await client.request(
      'DELETE',
      `${V1}/push/subscriptions/${reply.body.data.id}`,
      undefined,
      ops.admin.auth,
    );
    expect(off.status, off.text).toBe(200);
    const twice = await client.request(
      'DELETE',
      `${V1}/push/subscriptions/${reply.body.data.id}`,
      undefined,
      ops.admin.auth,
    );
    expect(twice.status).toBe(404);
  });

  it('refuses an endpoint that is no push service, and malformed keys, naming the fields', async () => {
    const subscription = await standInSubscription();
    const elsewhere = await client.request(
      'POST',
      `${V1}/push/subscriptions`,
      { ...subscription, endpoint: 'https://hooks.example.com/collect' },
      ops.onCall.auth,
    );
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.body.errors).toEqual(["endpoint: must be a push service's endpoint (hooks.example.com is none)"]);
    const internal = await client.request(
      'POST',
      `${V1}/push/subscriptions`,
      { ...subscription, endpoint: 'http://169.254.169.254/latest/meta-data' },
      ops.onCall.auth,
    );
    expect(internal.status).toBe(400);
    const badKeys = await client.request(
      'POST',
      `${V1}/push/subscriptions`,
      { endpoint: subscription.endpoint, keys: { p256dh: 'abc', auth: '!!' } },
      ops.onCall.auth,
    );
    expect(badKeys.status).toBe(400);
    expect(badKeys.body.errors).toEqual([
      'keys.p256dh: must be an uncompressed P-256 public key, base64url (65 bytes)',
      'keys.auth: must be the authentication secret, base64url (16 bytes)',
    ]);
  });

  it("does not let one member turn off another's device", async () => {
    const other = await joinAs(client, ops.admin, 'ENGINEER');
    const mine = await client.request('POST', `${V1}/push/subscriptions`, await standInSubscription(), other.auth);
    const reply = await client.request(
      'DELETE',
      `${V1}/push/subscriptions/${mine.body.data.id}`,
      undefined,
      ops.onCall.auth,
    );
    expect(reply.status).toBe(404);
  });
});

describe('a page by push', () => {
  it('reaches every device of the on-call member within 2 s, decrypts to the incident, and its Acknowledge acknowledges', async () => {
    const phone = await standInSubscription();
    const laptop = await standInSubscription();
    for (const device of [phone, laptop]) {
      const reply = await client.request('POST', `${V1}/push/subscriptions`, device, ops.onCall.auth);
      expect(reply.status, reply.text).toBe(201);
    }
    const startsAt = new Date(Date.now() - 7 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const sentAt = Date.now();
    const posted = await client.request(
      'POST',
      `${V1}/ingestion/metrics-alerts`,
      JSON.stringify(alertmanagerAlert(startsAt)),
      ops.ingest,
    );
    expect(posted.status, posted.text).toBe(202);
    let pushes: Record<string, any>[] = [];
    while (pushes.length === 0 && Date.now() - sentAt < 2000) {
      await client.stack.workers?.idle();
      pushes = await received(phone.endpoint);
    }
    expect(pushes, 'no push within 2 s').toHaveLength(1);
    const [push] = pushes as [Record<string, any>];
    expect(Date.parse(push.receivedAt) - sentAt).toBeLessThan(2000);
    expect(push.urgency).toBe('high');
    const payload = push.payload;
    const incidentId = payload.incidentId as string;
    expect(incidentId).toMatch(/^INC-/);
    expect(payload.title).toBe(`[HIGH] ${incidentId} opened: Checkout error rate above 5% on checkout`);
    expect(payload.body).toContain('Details: POST /pay answers 502');
    expect(payload.body).toMatch(/Since: \d\d:\d\d on .*\(Europe\/Berlin\), 7 minutes ago/);
    expect(payload.actions).toEqual([
      { action: 'acknowledge', title: 'Acknowledge' },
      { action: 'open', title: 'Open' },
    ]);
    expect(payload.url).toMatch(new RegExp(`/incidents/${incidentId}$`));
    expect(await received(laptop.endpoint)).toHaveLength(1);

    const ack = await client.request('POST', new URL(payload.ackUrl).pathname);
    expect(ack.status, ack.text).toBe(200);
    const reply = await client.request('GET', `${INCIDENTS}/${incidentId}`, undefined, ops.admin.auth);
    const incident = reply.body.data;
    expect(incident.status).toBe('ACKNOWLEDGED');
    expect(incident.acknowledgedBy).toBe(ops.onCall.email);
    expect(incident.acknowledgedVia).toBe('PUSH');
    Object.assign(paged, { phone, laptop, incidentId });

    await client.stack.deliveriesIdle();
    const deliveries = await client.request(
      'GET',
      `${INCIDENTS}/${incidentId}/notifications`,
      undefined,
      ops.admin.auth,
    );
    const pushed = (deliveries.body.data as Record<string, any>[]).filter(({ channel }) => channel === 'PUSH');
    expect(pushed.filter(({ event }) => event === 'OPENED')).toHaveLength(2);
    expect(pushed.every(({ status }) => status === 'SENT')).toBe(true);
    expect(pushed.find(({ acknowledgedAt }) => acknowledgedAt)?.recipient).toContain(ops.onCall.email);
  });

  it('removes a device the push service answers 410 for, recording that page FAILED with the reason', async () => {
    const { laptop, phone, incidentId } = paged;
    expect((await client.request('DELETE', new URL(laptop.endpoint).pathname)).status).toBe(204);
    const resolved = await client.request(
      'POST',
      `${INCIDENTS}/resolve/${incidentId}`,
      { resolution: 'Rolled back' },
      ops.admin.auth,
    );
    expect(resolved.status, resolved.text).toBe(200);
    await client.stack.deliveriesIdle();
    const news = (await received(phone.endpoint)).map(({ payload }) => payload.title as string);
    expect(news.at(-1)).toBe(
      `[HIGH] ${incidentId} resolved by ${fullName(ADMIN_NAME)}: Checkout error rate above 5% on checkout`,
    );
    const deliveries = await client.request(
      'GET',
      `${INCIDENTS}/${incidentId}/notifications`,
      undefined,
      ops.admin.auth,
    );
    const resolvedPushes = (deliveries.body.data as Record<string, any>[]).filter(
      ({ channel, event }) => channel === 'PUSH' && event === 'RESOLVED',
    );
    expect(resolvedPushes.map(({ status }) => status).sort()).toEqual(['FAILED', 'SENT']);
    expect(resolvedPushes.find(({ status }) => status === 'FAILED')?.attempts[0].detail).toMatch(/404\/410/);
    const { pushSubscriptionRepository } = await import('#lib/push/push-subscription-repository.ts');
    const left = await pushSubscriptionRepository(
      client.stack.ports.table,
      ops.onCall.user.businessId as string,
    ).listMemberSubscriptions(ops.onCall.user.id);
    expect(left.map(({ endpoint }) => endpoint)).toEqual([phone.endpoint]);
  });
});
