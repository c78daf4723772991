import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer } from '#lib/ports/mail/outbox-mailer.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { onCallFromNow } from '../support/on-call.ts';
import { confirmOutsideAddress } from '../support/outside-addresses.ts';
import { V1, registerChatWebhook } from './support.ts';

const ALERTS = 'alerts@mail-outage.example.com';

interface DeliveryView {
  channel: string;
  recipient: string;
  status: string;
  attempts: { outcome: string; detail?: string }[];
}

/**
 * The mail queue refusing the notification worker's e-mail: the page must not be recorded SENT and forgotten,
 * but FAILED and tried again with the notifications queue's retries, until the outbox takes it.
 */
describe('notification e-mail while the mail queue refuses messages', () => {
  let client: TestClient;
  let fakes: FakeIntegrationProviders;
  let admin: SignedIn;
  let mailQueueDown = true;

  beforeAll(async () => {
    fakes = await startFakeIntegrationProviders();
    client = await startTestStack(':memory:', undefined, {
      integrationProviders: fakes.providersConfig(),
      // Quick retries, one batch at a time (as in notifications.test.ts): a second consumer would receive again
      // a message still being delivered past the 1 s visibility timeout.
      queueSettings: {
        notifications: {
          visibilityTimeoutSeconds: 1,
          maxReceiveCount: 10,
          batchSize: 5,
          consumerTimeoutSeconds: 20,
          maxConcurrency: 1,
        },
      },
    });
    admin = await signUpBusiness(client, { businessName: 'Mail Outage Co' });
    const setup = await client.request('POST', `${V1}/ims/setup`, { alertEmail: ALERTS, timezone: 'UTC' }, admin.auth);
    expect(setup.status, setup.text).toBe(201);
    await confirmOutsideAddress(client, ALERTS);
    await onCallFromNow(client, admin, admin.user.id);
    await registerChatWebhook(client, admin, fakes, 'mail-outage');

    const { ports } = client.stack;
    // The fault is the queue's, under the real outbox mailer: SQS refusing the mail queue's messages only.
    const mailQueueOutage: Queue = {
      send: async (name, messages) => {
        if (name === 'mail' && mailQueueDown) throw new Error('mail queue unavailable');
        await ports.queue.send(name, messages);
      },
    };
    installPorts({ ...ports, mail: createOutboxMailer(mailQueueOutage, () => ports.mail.appUrl) });
  });
  afterAll(async () => {
    await client?.stack.stop();
    await fakes?.stop();
  });

  const deliveriesOf = async (incidentId: string): Promise<DeliveryView[]> => {
    const reply = await client.request(
      'GET',
      `${V1}/incident-ticket/${incidentId}/notifications`,
      undefined,
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };

  const waitFor = async (incidentId: string, done: (deliveries: DeliveryView[]) => boolean) => {
    let deliveries: DeliveryView[] = [];
    for (let waited = 0; waited < 200 && !done(deliveries); waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      deliveries = await deliveriesOf(incidentId);
    }
    return deliveries;
  };

  const mailAbout = async (email: string, incidentId: string): Promise<{ subject: string }[]> => {
    const reply = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`);
    return (reply.body.data as { subject: string }[]).filter(({ subject }) => subject.includes(incidentId));
  };

  it('records the e-mail FAILED, retries it, and records it SENT once the queue takes it; chat is sent once', async () => {
    const created = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Payments down', priority: 'CRITICAL' },
      admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    const incidentId = created.body.data.id as string;
    const emails = (deliveries: DeliveryView[]) => deliveries.filter(({ channel }) => channel === 'email');

    const failing = await waitFor(
      incidentId,
      (deliveries) =>
        emails(deliveries).length === 2 && emails(deliveries).every(({ attempts }) => attempts.length >= 2),
    );
    expect(emails(failing).map(({ recipient, status }) => ({ recipient, status }))).toEqual(
      expect.arrayContaining([
        { recipient: admin.email, status: 'FAILED' },
        { recipient: ALERTS, status: 'FAILED' },
      ]),
    );
    for (const { attempts } of emails(failing)) {
      expect(attempts.every(({ outcome, detail }) => outcome === 'FAILED' && detail === 'mail queue unavailable')).toBe(
        true,
      );
    }

    mailQueueDown = false;
    const recovered = await waitFor(
      incidentId,
      (deliveries) => emails(deliveries).length === 2 && emails(deliveries).every(({ status }) => status === 'SENT'),
    );
    for (const { attempts } of emails(recovered)) {
      const outcomes = attempts.map(({ outcome }) => outcome);
      expect(outcomes.slice(0, -1).every((outcome) => outcome === 'FAILED')).toBe(true);
      expect(outcomes.at(-1)).toBe('SENT');
      expect(outcomes.length).toBeGreaterThanOrEqual(3);
    }
    expect(recovered.find(({ channel }) => channel === 'chat')).toMatchObject({
      status: 'SENT',
      attempts: [{ outcome: 'SENT' }],
    });
    expect(await mailAbout(admin.email, incidentId)).toHaveLength(1);
    expect(await mailAbout(ALERTS, incidentId)).toHaveLength(1);
    expect(fakes.chatMessages('mail-outage').filter(({ text }) => String(text).includes(incidentId))).toHaveLength(1);
  }, 60_000);
});
