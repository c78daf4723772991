import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, fullName, joinAs, MEMBER_NAME, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { onCallFromNow } from '../support/on-call.ts';
import { team, type Team } from '../support/team.ts';
import { V1, connect, registerChatWebhook } from './support.ts';

let client: TestClient;
let fakes: FakeIntegrationProviders;

beforeAll(async () => {
  fakes = await startFakeIntegrationProviders();
  client = await startTestStack(':memory:', undefined, {
    workers: true,
    integrationProviders: fakes.providersConfig(),
    // One batch at a time: a second consumer would receive again a message still being delivered past this
    // 1 s visibility timeout (AWS refuses a timeout shorter than the consumer's; quick retries need it here).
    queueSettings: {
      notifications: {
        visibilityTimeoutSeconds: 1,
        maxReceiveCount: 5,
        batchSize: 5,
        consumerTimeoutSeconds: 20,
        maxConcurrency: 1,
      },
    },
  });
});

afterAll(async () => {
  await client?.stack.stop();
  await fakes?.stop();
});

const hhmm = (date: Date): string => date.toISOString().slice(11, 16);

/** The shared team on UTC's clock, as this file's times are read. */
const teamOnUtc = (name: string, ims: Record<string, unknown> = {}): Promise<Team> =>
  team(client, name, { timezone: 'UTC', ...ims });

/** Posts a firing alert of the generic webhook and answers the incident correlation opens for it. */
const alert = async ({ admin, ingest }: Team, title: string, service: string): Promise<string> => {
  const before = await client.request('GET', `${V1}/incident-ticket`, undefined, admin.auth);
  const known = new Set((before.body.data as { id: string }[]).map(({ id }) => id));
  const posted = await client.request(
    'POST',
    `${V1}/ingestion/webhook`,
    { source: 'probe', title, severity: 'critical', status: 'firing', metadata: { service } },
    ingest,
  );
  expect(posted.status, posted.text).toBe(202);
  await client.stack.workers?.idle();
  const list = await client.request('GET', `${V1}/incident-ticket`, undefined, admin.auth);
  const opened = (list.body.data as { id: string }[]).find(({ id }) => !known.has(id));
  if (!opened) throw new Error(`no incident was opened for ${title}`);
  return opened.id;
};

const mailTo = async (email: string): Promise<{ subject: string; text: string }[]> =>
  (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data;

const notificationsOf = async (who: SignedIn, incidentId: string) => {
  const reply = await client.request('GET', `${V1}/incident-ticket/${incidentId}/notifications`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as {
    event: string;
    channel: string;
    recipient: string;
    status: string;
    attempts: unknown[];
  }[];
};

const chatAbout = (hook: string, incidentId: string) =>
  fakes.chatMessages(hook).filter((message) => String(message.text).includes(incidentId));

describe('notifications: the issue scenario', () => {
  it('reaches the on-call member on chat and by e-mail once; silent hours mute; resolving notifies', async () => {
    const ops = await teamOnUtc('Paging');
    await registerChatWebhook(client, ops.admin, fakes, 'paging');

    const incidentId = await alert(ops, 'Checkout latency', 'payments');
    const onCallMail = (await mailTo(ops.onCall.email)).filter(({ subject }) => subject.includes(incidentId));
    expect(onCallMail).toHaveLength(1);
    expect(onCallMail[0]?.subject).toMatch(new RegExp(`^\\[HIGH\\] ${incidentId} opened: `));
    expect(onCallMail[0]?.text).toContain(`Service: payments`);
    expect(onCallMail[0]?.text).toContain(`${client.stack.url}/incidents/${incidentId}`);
    const posted = chatAbout('paging', incidentId);
    expect(posted).toHaveLength(1);
    expect(posted[0].blocks[0].text.text).toContain(`On call: ${fullName(MEMBER_NAME)}`);
    expect(posted[0].blocks[0].text.text).toContain(`<${client.stack.url}/incidents/${incidentId}|Open the incident>`);
    expect(await notificationsOf(ops.onCall, incidentId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'OPENED', channel: 'chat', recipient: '#incidents', status: 'SENT' }),
        expect.objectContaining({ event: 'OPENED', channel: 'email', recipient: ops.onCall.email, status: 'SENT' }),
        expect.objectContaining({ event: 'OPENED', channel: 'email', recipient: 'alerts-paging@example.com' }),
      ]),
    );

    const now = new Date();
    const silence = await client.request(
      'POST',
      `${V1}/silent-hours`,
      {
        rules: [
          {
            name: 'Checkout quiet hours',
            startTime: hhmm(new Date(now.getTime() - 60 * 60 * 1000)),
            endTime: hhmm(new Date(now.getTime() + 60 * 60 * 1000)),
            timezone: 'UTC',
            daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
            teamScope: 'checkout',
          },
        ],
      },
      ops.admin.auth,
    );
    expect(silence.status, silence.text).toBe(200);
    const quiet = await alert(ops, 'Cart errors', 'checkout');
    expect((await mailTo(ops.onCall.email)).filter(({ subject }) => subject.includes(quiet))).toEqual([]);
    expect(chatAbout('paging', quiet)).toEqual([]);
    const muted = await notificationsOf(ops.admin, quiet);
    expect(muted.length).toBeGreaterThan(0);
    expect(muted.every(({ status }) => status === 'MUTED')).toBe(true);

    const resolved = await client.request('POST', `${V1}/incident-ticket/resolve/${incidentId}`, {}, ops.onCall.auth);
    expect(resolved.status, resolved.text).toBe(200);
    const afterResolve = (await mailTo(ops.onCall.email)).filter(({ subject }) => subject.includes(incidentId));
    expect(afterResolve.map(({ subject }) => subject.replace(/: .*/, ''))).toEqual([
      `[HIGH] ${incidentId} resolved by ${fullName(MEMBER_NAME)}`,
      `[HIGH] ${incidentId} opened`,
    ]);
    expect(chatAbout('paging', incidentId).map(({ text }) => text.includes('resolved'))).toEqual([false, true]);
  });
});

describe('notification rules', () => {
  it('follows notifyOnCreate and notifyOnResolve: nothing is sent nor recorded when they are off', async () => {
    const quiet = await teamOnUtc('Quiet', { notifyOnCreate: false, notifyOnResolve: false });
    await registerChatWebhook(client, quiet.admin, fakes, 'quiet');
    const incidentId = await alert(quiet, 'Disk full', 'storage');
    await client.request('POST', `${V1}/incident-ticket/resolve/${incidentId}`, {}, quiet.admin.auth);
    expect((await mailTo(quiet.onCall.email)).filter(({ subject }) => subject.includes(incidentId))).toEqual([]);
    expect(chatAbout('quiet', incidentId)).toEqual([]);
    expect(await notificationsOf(quiet.admin, incidentId)).toEqual([]);
  });

  it('posts to the IMS slackChannel when the workspace names one, and records it as the recipient', async () => {
    const named = await teamOnUtc('Channelled', { slackChannel: '#sev-alerts' });
    await registerChatWebhook(client, named.admin, fakes, 'channelled');
    const incidentId = await alert(named, 'Queue stuck', 'billing');
    // The notification worker sends after the incident exists: wait for its delivery.
    await client.stack.deliveriesIdle();
    expect(chatAbout('channelled', incidentId).map(({ channel }) => channel)).toEqual(['#sev-alerts']);
    expect(await notificationsOf(named.admin, incidentId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ channel: 'chat', recipient: '#sev-alerts', status: 'SENT' })]),
    );
  });

  it('escalation (priority raised) notifies; a lowered priority does not', async () => {
    const ops = await teamOnUtc('Escalating');
    await registerChatWebhook(client, ops.admin, fakes, 'escalating');
    const created = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Slow search', priority: 'LOW', serviceArea: 'search' },
      ops.admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    for (const priority of ['CRITICAL', 'MEDIUM']) {
      const changed = await client.request('PUT', `${V1}/incident-ticket/${id}`, { priority }, ops.admin.auth);
      expect(changed.status, changed.text).toBe(200);
    }
    // Deliveries run side by side (a queue's concurrent batches), so the mails' order is not the events'.
    const subjects = (await mailTo(ops.onCall.email))
      .filter(({ subject }) => subject.includes(id))
      .map(({ subject }) => subject);
    expect(subjects.sort()).toEqual([
      `[CRITICAL] ${id} priority raised from LOW to CRITICAL: Slow search`,
      `[LOW] ${id} opened: Slow search`,
    ]);
  });

  it('texts on-call members who connected SMS, and adds a war-room link when the video tool is connected', async () => {
    const ops = await teamOnUtc('Texting');
    const sms = await client.request(
      'POST',
      `${V1}/integrations/sms/connect`,
      { phoneNumber: '+14155550123' },
      ops.onCall.auth,
    );
    expect(sms.status).toBe(403);
    await connect(client, ops.admin, 'videomeet');
    await onCallFromNow(client, ops.admin, ops.admin.user.id);
    const own = await client.request(
      'POST',
      `${V1}/integrations/sms/connect`,
      { phoneNumber: '+14155550123' },
      ops.admin.auth,
    );
    expect(own.status, own.text).toBe(201);
    const incidentId = await alert(ops, 'Database down', 'db');
    const texts = (await client.request('GET', `/_local/sms?to=${encodeURIComponent('+14155550123')}`)).body.data;
    expect(texts).toEqual([expect.objectContaining({ to: '+14155550123', text: expect.stringContaining(incidentId) })]);
    const mail = (await mailTo(ops.admin.email)).find(({ subject }) => subject.includes(incidentId));
    expect(mail?.text).toMatch(new RegExp(`Join the war room: ${fakes.url}/videomeet/j/`));
    expect(await notificationsOf(ops.admin, incidentId)).toContainEqual(
      expect.objectContaining({ channel: 'sms', recipient: '+14•••••0123', status: 'SENT' }),
    );
  });

  it("carries each recipient's acknowledge link while OPEN: the chat one acknowledges as the channel", async () => {
    const ops = await teamOnUtc('Acking');
    await registerChatWebhook(client, ops.admin, fakes, 'acking');
    await onCallFromNow(client, ops.admin, ops.admin.user.id);
    const phone = await client.request(
      'POST',
      `${V1}/integrations/sms/connect`,
      { phoneNumber: '+14155550199' },
      ops.admin.auth,
    );
    expect(phone.status, phone.text).toBe(201);
    const incidentId = await alert(ops, 'Queue backlog', 'billing');
    await client.stack.deliveriesIdle();

    const chat = chatAbout('acking', incidentId)[0].blocks[0].text.text as string;
    const chatLink = /<(http[^|>]+\/api\/v1\/ack\/[^|>]+)\|Acknowledge>/.exec(chat)?.[1];
    expect(chatLink).toBeDefined();
    const texts = (await client.request('GET', `/_local/sms?to=${encodeURIComponent('+14155550199')}`)).body.data;
    const smsLink = / Ack: (\S+)$/.exec(texts[0].text)?.[1];
    expect(smsLink).toMatch(/\/api\/v1\/ack\//);
    const mail = (await mailTo(ops.onCall.email)).find(({ subject }) => subject.includes(incidentId));
    expect(mail?.text).toMatch(/\nAcknowledge: http\S+\/api\/v1\/ack\/\S+/);

    const acknowledged = await client.request('POST', new URL(chatLink as string).pathname);
    expect(acknowledged.status, acknowledged.text).toBe(200);
    const incident = await client.request('GET', `${V1}/incident-ticket/${incidentId}`, undefined, ops.admin.auth);
    expect(incident.body.data).toMatchObject({
      status: 'ACKNOWLEDGED',
      acknowledgedBy: '#incidents',
      acknowledgedVia: 'chat',
    });
    const late = await client.request('POST', new URL(smsLink as string).pathname);
    expect(late.status).toBe(200);
    expect(late.text).toContain('Already acknowledged');
    expect(late.text).toContain('Acknowledged by #incidents');
    expect(await notificationsOf(ops.admin, incidentId)).toContainEqual(
      expect.objectContaining({ event: 'OPENED', channel: 'chat', acknowledgedAt: expect.any(String) }),
    );

    const resolved = await client.request('POST', `${V1}/incident-ticket/resolve/${incidentId}`, {}, ops.admin.auth);
    expect(resolved.status, resolved.text).toBe(200);
    await client.stack.deliveriesIdle();
    const resolvedChat = chatAbout('acking', incidentId).find(({ text }) => String(text).includes('resolved'));
    expect(resolvedChat.blocks[0].text.text).not.toContain('|Acknowledge>');
  });

  it('retries a failed delivery with backoff, recording each attempt, and sends the others only once', async () => {
    const ops = await teamOnUtc('Flaky');
    await registerChatWebhook(client, ops.admin, fakes, 'flaky');
    fakes.failWebhook('flaky', 2);
    const incidentId = await alert(ops, 'Queue backlog', 'queue');
    // Delivered once the queue is empty: after the two failed receives' visibility timeouts.
    await client.stack.deliveriesIdle();
    const chat = (await notificationsOf(ops.admin, incidentId)).find(({ channel }) => channel === 'chat') as
      | { status: string; attempts: { outcome: string }[] }
      | undefined;
    expect(chat?.attempts.map(({ outcome }) => outcome)).toEqual(['FAILED', 'FAILED', 'SENT']);
    expect(chatAbout('flaky', incidentId)).toHaveLength(1);
    expect((await mailTo(ops.onCall.email)).filter(({ subject }) => subject.includes(incidentId))).toHaveLength(1);
  });

  it("answers another workspace's incident with 404, and lets every role and incidents:read keys read", async () => {
    const ops = await teamOnUtc('Readers');
    const other = await signUpBusiness(client, { businessName: 'Strangers' });
    const created = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'x', priority: 'LOW' },
      ops.admin.auth,
    );
    const id = created.body.data.id as string;
    expect(
      (await client.request('GET', `${V1}/incident-ticket/${id}/notifications`, undefined, other.auth)).status,
    ).toBe(404);
    const viewer = await joinAs(client, ops.admin, 'VIEWER');
    expect(
      (await client.request('GET', `${V1}/incident-ticket/${id}/notifications`, undefined, viewer.auth)).status,
    ).toBe(200);
    const reader = await apiKeyHeaders(client, ops.admin, ['incidents:read']);
    expect((await client.request('GET', `${V1}/incident-ticket/${id}/notifications`, undefined, reader)).status).toBe(
      200,
    );
    const wrong = await apiKeyHeaders(client, ops.admin, ['integrations:read']);
    expect((await client.request('GET', `${V1}/incident-ticket/${id}/notifications`, undefined, wrong)).status).toBe(
      403,
    );
  });
});
