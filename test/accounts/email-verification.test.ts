import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { findAccountByEmail } from '#lib/accounts/account-repository.ts';
import { otpRepository } from '#lib/accounts/otp-repository.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { startTestStack } from '../support/local-stack.ts';
import { latestOtp, signUpBusiness, uniqueEmail } from '../support/accounts.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());
afterEach(() => installPorts(client.stack.ports));

const PASSWORD = 'correct horse battery staple';
const TEN_MINUTES = 10 * 60 * 1000;

const register = async (email = uniqueEmail('verify')) => {
  const reply = await client.request('POST', '/api/v1/auth/business/register', {
    businessName: 'Acme Ops',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    password: PASSWORD,
  });
  expect(reply.status).toBe(201);
  return email;
};

const verify = (email: string, otp: string) =>
  client.request('POST', '/api/v1/auth/verify_email', { email, otp, password: PASSWORD });
const loginStatus = async (email: string) =>
  (await client.request('POST', '/api/v1/auth/login', { email, password: PASSWORD })).status;
const mailCount = async (email: string) =>
  ((await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as unknown[]).length;

/** A code that is surely not the mailed one. */
const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

/** Requests from now on see the clock shifted by `ms`; afterEach puts the real runtime back. */
const shiftClock = (ms: number) => {
  const clock: Clock = { now: () => new Date(Date.now() + ms) };
  installPorts({ ...client.stack.ports, clock });
};

const failure = (reply: { status: number; body: unknown }) => ({ status: reply.status, body: reply.body });

describe('POST /auth/verify_email', () => {
  it('verifies with the mailed code; login is 403 before and 200 after', async () => {
    const email = await register();
    const before = await client.request('POST', '/api/v1/auth/login', { email, password: PASSWORD });
    expect(before.status).toBe(403);
    expect(before.body.message).toMatch(/not verified/i);
    expect(before.body.data).toBeUndefined();

    const reply = await verify(email, await latestOtp(client, email));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, message: 'Email verified', data: { email, isVerified: true } });
    expect(await loginStatus(email)).toBe(200);
  });

  it('answers a wrong code and an unknown address with the same 400', async () => {
    const email = await register();
    const otp = await latestOtp(client, email);
    const wrongCode = await verify(email, wrong(otp));
    const unknown = await verify(uniqueEmail('nobody'), otp);
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.errors).toEqual([expect.stringMatching(/^otp: /)]);
    expect(failure(unknown)).toEqual(failure(wrongCode));
    expect(await loginStatus(email)).toBe(403);
  });

  it('answers 200 for an address already verified', async () => {
    const admin = await signUpBusiness(client);
    const again = await verify(admin.email, '000000');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      message: 'Email already verified',
      data: { email: admin.email, isVerified: true },
    });
  });

  it('rejects a code that is not 6 digits with a field message', async () => {
    const email = await register();
    for (const otp of ['12345', '1234567', 'abcdef']) {
      const reply = await verify(email, otp);
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([expect.stringMatching(/^otp: /)]);
    }
    expect((await client.request('POST', '/api/v1/auth/verify_email', { email })).status).toBe(400);
  });

  it('accepts a code just before 10 minutes and refuses it at 10 minutes', async () => {
    const late = await register();
    shiftClock(TEN_MINUTES + 1000);
    expect((await verify(late, await latestOtp(client, late))).status).toBe(400);

    const inTime = await register();
    shiftClock(TEN_MINUTES - 5000);
    expect((await verify(inTime, await latestOtp(client, inTime))).status).toBe(200);
  });

  it('refuses a code stored with an expiry in the past', async () => {
    const email = await register();
    const account = await findAccountByEmail(client.stack.ports.table, email);
    const stale = await otpRepository(client.stack.ports.table, account!.id).issueOtp(
      'VERIFY_EMAIL',
      new Date(Date.now() - TEN_MINUTES - 1),
    );
    expect((await verify(email, stale)).status).toBe(400);
  });

  it('burns a code after 5 wrong tries, even for the right code afterwards', async () => {
    const email = await register();
    const otp = await latestOtp(client, email);
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await verify(email, wrong(otp))).status).toBe(400);
    expect((await verify(email, otp)).status).toBe(400);
    expect(await loginStatus(email)).toBe(403);
  });

  it('still takes the right code after 4 wrong tries', async () => {
    const email = await register();
    const otp = await latestOtp(client, email);
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await verify(email, wrong(otp))).status).toBe(400);
    expect((await verify(email, otp)).status).toBe(200);
  });

  it('redeems a code once only, even when two redemptions race', async () => {
    const { table } = client.stack.ports;
    const account = await findAccountByEmail(table, await register());
    const now = new Date();
    const otp = await otpRepository(table, account!.id).issueOtp('RESET_PASSWORD', now);
    const raced = await Promise.all([
      otpRepository(table, account!.id).redeemOtp('RESET_PASSWORD', otp, now, '127.0.0.1'),
      otpRepository(table, account!.id).redeemOtp('RESET_PASSWORD', otp, now, '127.0.0.1'),
    ]);
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await otpRepository(table, account!.id).redeemOtp('RESET_PASSWORD', otp, now, '127.0.0.1')).toBe(false);
  });

  it('does not take a password reset code', async () => {
    const email = await register();
    const verification = await latestOtp(client, email);
    expect((await client.request('POST', '/api/v1/auth/forgot-password', { email })).status).toBe(200);
    const reset = await latestOtp(client, email);
    expect(reset).not.toBe(verification);
    expect((await verify(email, reset)).status).toBe(400);
    expect((await verify(email, verification)).status).toBe(200);
  });
});

describe('POST /auth/resend_otp', () => {
  const resend = (email: string) => client.request('POST', '/api/v1/auth/resend_otp', { email });
  const answer = (reply: { status: number; body: { success: boolean; message: string } }) => ({
    status: reply.status,
    success: reply.body.success,
    message: reply.body.message,
  });

  it('sends a new code that replaces the earlier one', async () => {
    const email = await register();
    const first = await latestOtp(client, email);
    expect((await resend(email)).status).toBe(200);
    expect(await mailCount(email)).toBe(2);
    const second = await latestOtp(client, email);
    if (first !== second) expect((await verify(email, first)).status).toBe(400);
    expect((await verify(email, second)).status).toBe(200);
  });

  it('answers the same for unknown, unverified and verified addresses, and mails only the unverified one', async () => {
    const unverified = await register();
    const verified = (await signUpBusiness(client)).email;
    const unknown = uniqueEmail('ghost');
    const before = { verified: await mailCount(verified), unverified: await mailCount(unverified) };

    const replies = [await resend(unknown), await resend(unverified), await resend(verified)];
    for (const reply of replies) {
      expect(answer(reply)).toEqual(answer(replies[0]!));
      expect(reply.body.data).toEqual({ email: expect.any(String) });
    }
    expect(replies[0]!.status).toBe(200);
    expect(await mailCount(unknown)).toBe(0);
    expect(await mailCount(unverified)).toBe(before.unverified + 1);
    expect(await mailCount(verified)).toBe(before.verified);
  });

  it('requires a valid address', async () => {
    expect((await resend('not-an-address')).status).toBe(400);
    expect((await client.request('POST', '/api/v1/auth/resend_otp', {})).status).toBe(400);
  });
});
