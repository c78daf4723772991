import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { findAccountByEmail } from '#lib/accounts/account-repository.ts';
import type { MailDelivery, MailMessage } from '#lib/ports/mail/mail.ts';
import { createOutboxMailer } from '#lib/ports/mail/outbox-mailer.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import type { QueueSettings } from '#lib/ports/queue/queue-settings.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { joinAs, latestOtp, signUpBusiness, uniqueEmail } from '../support/accounts.ts';
import { startTestStack } from '../support/local-stack.ts';

/** Quick retries: a refused message is back a second later, and set aside after its third refusal. */
const MAIL_QUEUE: QueueSettings = {
  visibilityTimeoutSeconds: 1,
  maxReceiveCount: 3,
  batchSize: 10,
  consumerTimeoutSeconds: 1,
  // One consumer: a batch that outlasts the second's visibility on a busy machine is not received twice.
  maxConcurrency: 1,
};

const client = await startTestStack(':memory:', undefined, { queueSettings: { mail: MAIL_QUEUE } });
const { ports } = client.stack;
afterAll(() => client.stack.stop());
afterEach(() => installPorts(ports));

const PASSWORD = 'correct horse battery staple';

const register = (email: string) =>
  client.request('POST', '/api/v1/auth/business/register', {
    businessName: 'Outbox Co',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    password: PASSWORD,
  });

const mailTo = async (email: string): Promise<MailMessage[]> =>
  (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data;

/** The local mail service, refusing the first `failures` deliveries (all of them by default) and counting tries. */
const refusing = (failures = Number.POSITIVE_INFINITY) => {
  const tries: string[] = [];
  const delivery: MailDelivery = {
    async deliver(message) {
      tries.push(message.to);
      if (tries.length <= failures) throw new Error('MessageRejected: Email address is not verified');
      await ports.mailDelivery.deliver(message);
    },
  };
  return { delivery, tries };
};

/** Log lines written while `body` runs, parsed (the suite runs silent otherwise). */
const logsOf = async (body: () => Promise<void>): Promise<Record<string, unknown>[]> => {
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await body();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.env.LOG_LEVEL = level;
  }
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
};

/** The outbox of the API functions over a queue that refuses every message, as SQS does when it is down. */
const installRefusingOutbox = () => {
  const refusingQueue: Queue = {
    send: async () => {
      throw new Error('queue unavailable');
    },
  };
  installPorts({ ...ports, mail: createOutboxMailer(refusingQueue, () => ports.mail.appUrl) });
};

const lostMail = (logs: Record<string, unknown>[]) =>
  logs.filter((line) => line.message === 'mail not queued; the recipient can ask for it again');

const deadLetters = async (): Promise<MailMessage[]> => {
  const { Messages = [] } = await client.stack.queues.client.send(
    new ReceiveMessageCommand({
      QueueUrl: client.stack.queues.deadLetterQueueUrl('mail'),
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
    }),
  );
  return Messages.map((message) => JSON.parse(message.Body ?? '{}') as MailMessage);
};

describe('e-mail through the outbox', () => {
  it('delivers the registration code through the mail worker; the code verifies the address', async () => {
    const email = uniqueEmail('outbox');
    const delivered: string[] = [];
    const recording: MailDelivery = {
      deliver(message) {
        delivered.push(message.to);
        return ports.mailDelivery.deliver(message);
      },
    };
    installPorts({ ...ports, mailDelivery: recording });
    expect((await register(email)).status).toBe(201);
    const otp = await latestOtp(client, email);
    expect(delivered).toEqual([email]);
    const verified = await client.request('POST', '/api/v1/auth/verify_email', { email, otp, password: PASSWORD });
    expect(verified.status).toBe(200);
  });

  it('retries a refused delivery until the mail service takes it; the request answered 201 at once', async () => {
    const email = uniqueEmail('flaky');
    const { delivery, tries } = refusing(2);
    installPorts({ ...ports, mailDelivery: delivery });
    expect((await register(email)).status).toBe(201);
    // Answered before the first retry: the request never waits on the mail service.
    expect(tries.length).toBeLessThanOrEqual(1);
    const otp = await latestOtp(client, email);
    expect(tries).toEqual([email, email, email]);
    const verified = await client.request('POST', '/api/v1/auth/verify_email', { email, otp, password: PASSWORD });
    expect(verified.status).toBe(200);
  });

  it('sets a message the mail service keeps refusing aside in the dead-letter queue', async () => {
    const email = uniqueEmail('refused');
    const { delivery, tries } = refusing();
    installPorts({ ...ports, mailDelivery: delivery });
    expect((await register(email)).status).toBe(201);
    // The mail queue is idle once the message is neither visible nor in flight: set aside.
    const logs = await logsOf(() => client.stack.deliveriesIdle());
    expect(await deadLetters()).toEqual([expect.objectContaining({ to: email, subject: 'Your verification code' })]);
    expect(tries.length).toBe(MAIL_QUEUE.maxReceiveCount);
    expect(await mailTo(email)).toEqual([]);
    const refusals = logs.filter((line) => String(line.message).startsWith('mail-worker: record failed'));
    expect(refusals.length).toBeGreaterThan(0);
  });

  it('answers 201 when the outbox refuses the message, logs the domain only, and resend_otp delivers a working code', async () => {
    const local = `lost-${Date.now().toString(36)}`;
    const email = `${local}@outbox.example`;
    installRefusingOutbox();
    let status = 0;
    const logs = await logsOf(async () => {
      status = (await register(email)).status;
    });
    expect(status).toBe(201);
    expect(lostMail(logs)).toEqual([expect.objectContaining({ level: 'error', recipientDomain: 'outbox.example' })]);
    expect(JSON.stringify(logs)).not.toContain(local);

    const account = await findAccountByEmail(ports.table, email);
    expect(account).toMatchObject({ email, isVerified: false, roles: ['ADMIN'] });
    const workspace = workspaceRepository(ports.table, account?.businessId ?? '');
    expect(await workspace.getMember(account?.id ?? '')).toMatchObject({ role: 'ADMIN', email });
    expect(await mailTo(email)).toEqual([]);

    installPorts(ports);
    expect((await client.request('POST', '/api/v1/auth/resend_otp', { email })).status).toBe(200);
    const otp = await latestOtp(client, email);
    const verified = await client.request('POST', '/api/v1/auth/verify_email', { email, otp, password: PASSWORD });
    expect(verified.status).toBe(200);
    expect((await client.request('POST', '/api/v1/auth/login', { email, password: PASSWORD })).status).toBe(200);
  });

  it('answers forgot-password, resend_otp and send-invite as before when the outbox refuses; each asks again', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Refused Co' });
    const pendingLocal = `pending-${Date.now().toString(36)}`;
    const pending = `${pendingLocal}@pending.example`;
    expect((await register(pending)).status).toBe(201);
    const inviteeLocal = `invitee-${Date.now().toString(36)}`;
    const invitee = `${inviteeLocal}@invitee.example`;
    const unknown = uniqueEmail('nobody');

    installRefusingOutbox();
    const answers: Record<string, { status: number; message: string }> = {};
    const logs = await logsOf(async () => {
      for (const [name, path, email] of [
        ['forgot', '/api/v1/auth/forgot-password', admin.email],
        ['forgotUnknown', '/api/v1/auth/forgot-password', unknown],
        ['resend', '/api/v1/auth/resend_otp', pending],
        ['resendUnknown', '/api/v1/auth/resend_otp', unknown],
      ] as const) {
        const reply = await client.request('POST', path, { email });
        answers[name] = { status: reply.status, message: reply.body.message };
      }
      const invited = await client.request(
        'POST',
        '/api/v1/business/send-invite',
        { email: invitee, role: 'ENGINEER', accessPermissions: [] },
        admin.auth,
      );
      answers.invite = { status: invited.status, message: invited.body.message };
    });
    // The same answers as with a working outbox, and the same for an address without an account.
    expect(answers.forgot).toEqual({ status: 200, message: expect.stringContaining('reset code is on its way') });
    expect(answers.forgotUnknown).toEqual(answers.forgot);
    expect(answers.resend).toEqual({ status: 200, message: expect.stringContaining('new code is on its way') });
    expect(answers.resendUnknown).toEqual(answers.resend);
    expect(answers.invite).toEqual({ status: 201, message: 'Invitation sent' });
    expect(lostMail(logs).map(({ level, recipientDomain }) => ({ level, recipientDomain }))).toEqual([
      { level: 'error', recipientDomain: 'example.com' },
      { level: 'error', recipientDomain: 'pending.example' },
      { level: 'error', recipientDomain: 'invitee.example' },
    ]);
    for (const local of [pendingLocal, inviteeLocal, admin.email.split('@')[0]]) {
      expect(JSON.stringify(logs)).not.toContain(local);
    }
    expect(await mailTo(invitee)).toEqual([]);

    // Asking again once the outbox takes messages: the re-sent invitation arrives and is accepted.
    installPorts(ports);
    const joined = await joinAs(client, admin, 'ENGINEER', invitee);
    expect(joined.user.businessId).toBe(admin.user.businessId);
    expect((await client.request('POST', '/api/v1/auth/resend_otp', { email: pending })).status).toBe(200);
    const verified = await client.request('POST', '/api/v1/auth/verify_email', {
      email: pending,
      otp: await latestOtp(client, pending),
      password: PASSWORD,
    });
    expect(verified.status).toBe(200);
  });
});
