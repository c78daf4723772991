import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { startTestStack } from '../support/local-stack.ts';
import { latestOtp, signUpBusiness, uniqueEmail } from '../support/accounts.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());
afterEach(() => installPorts(client.stack.ports));

const NEW_PASSWORD = 'a brand new passphrase';

const forgot = (email: string) => client.request('POST', '/api/v1/auth/forgot-password', { email });
const reset = (email: string, otp: string, newPassword = NEW_PASSWORD) =>
  client.request('POST', '/api/v1/auth/reset-password', { email, otp, newPassword });
const loginStatus = async (email: string, password: string) =>
  (await client.request('POST', '/api/v1/auth/login', { email, password })).status;
const mail = async (email: string) =>
  (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as {
    subject: string;
    otp?: string;
  }[];
const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
const failure = (reply: { status: number; body: unknown }) => ({ status: reply.status, body: reply.body });

describe('POST /auth/forgot-password', () => {
  it('answers the same for known and unknown addresses, and mails a reset code only to the known one', async () => {
    const admin = await signUpBusiness(client);
    const unknown = uniqueEmail('ghost');
    const before = (await mail(admin.email)).length;

    const known = await forgot(admin.email);
    const nobody = await forgot(unknown);
    expect(known.status).toBe(200);
    expect({ status: nobody.status, message: nobody.body.message }).toEqual({
      status: known.status,
      message: known.body.message,
    });
    expect(await mail(unknown)).toEqual([]);
    const sent = await mail(admin.email);
    expect(sent).toHaveLength(before + 1);
    expect(sent[0]).toMatchObject({ subject: expect.stringMatching(/reset/i), otp: expect.stringMatching(/^\d{6}$/) });
  });

  it('requires a valid address', async () => {
    expect((await forgot('nope')).status).toBe(400);
  });
});

describe('POST /auth/reset-password', () => {
  it('sets the new password, retires the old one and signs out every login', async () => {
    const admin = await signUpBusiness(client);
    const otherLogin = await client.request('POST', '/api/v1/auth/login', {
      email: admin.email,
      password: admin.password,
    });
    await forgot(admin.email);
    const reply = await reset(admin.email, await latestOtp(client, admin.email));
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);

    expect(await loginStatus(admin.email, admin.password)).toBe(401);
    expect(await loginStatus(admin.email, NEW_PASSWORD)).toBe(200);
    for (const refreshToken of [admin.refreshToken, otherLogin.body.data.refreshToken]) {
      expect((await client.request('POST', '/api/v1/auth/refresh-token', { refreshToken })).status).toBe(401);
    }
  });

  it('ends access tokens issued before the reset at once', async () => {
    const admin = await signUpBusiness(client);
    const members = (auth: Record<string, string>) =>
      client.request('GET', '/api/v1/business/get_members', undefined, auth).then((reply) => reply.status);
    expect(await members(admin.auth)).toBe(200);
    await forgot(admin.email);
    expect((await reset(admin.email, await latestOtp(client, admin.email))).status).toBe(200);

    const stale = await client.request('GET', '/api/v1/business/get_members', undefined, admin.auth);
    expect(stale.status).toBe(401);
    expect(stale.body.message).toMatch(/log in again/);
    const fresh = await client.request('POST', '/api/v1/auth/login', { email: admin.email, password: NEW_PASSWORD });
    expect(await members({ authorization: `Bearer ${fresh.body.data.accessToken}` })).toBe(200);
  });

  it('answers a wrong code and an unknown address with the same 400, and changes nothing', async () => {
    const admin = await signUpBusiness(client);
    await forgot(admin.email);
    const otp = await latestOtp(client, admin.email);
    const wrongCode = await reset(admin.email, wrong(otp));
    const unknown = await reset(uniqueEmail('ghost'), otp);
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.errors).toEqual([expect.stringMatching(/^otp: /)]);
    expect(failure(unknown)).toEqual(failure(wrongCode));
    expect(await loginStatus(admin.email, admin.password)).toBe(200);
    expect(
      (await client.request('POST', '/api/v1/auth/refresh-token', { refreshToken: admin.refreshToken })).status,
    ).toBe(200);
  });

  it('does not take an e-mail verification code', async () => {
    const email = uniqueEmail('fresh');
    const registered = await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      password: 'the original password',
      experienceLevel: 'MID',
    });
    expect(registered.status).toBe(201);
    expect((await reset(email, await latestOtp(client, email))).status).toBe(400);
  });

  it('verifies an unverified address, since the code proved it', async () => {
    const email = uniqueEmail('unverified');
    await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      password: 'the original password',
      experienceLevel: 'MID',
    });
    expect(await loginStatus(email, 'the original password')).toBe(403);
    await forgot(email);
    expect((await reset(email, await latestOtp(client, email))).status).toBe(200);
    expect(await loginStatus(email, NEW_PASSWORD)).toBe(200);
  });

  it('burns the code after 5 wrong tries and refuses it after 10 minutes', async () => {
    const burnt = await signUpBusiness(client);
    await forgot(burnt.email);
    const otp = await latestOtp(client, burnt.email);
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await reset(burnt.email, wrong(otp))).status).toBe(400);
    expect((await reset(burnt.email, otp)).status).toBe(400);

    const late = await signUpBusiness(client);
    await forgot(late.email);
    const clock: Clock = { now: () => new Date(Date.now() + 10 * 60 * 1000 + 1000) };
    installPorts({ ...client.stack.ports, clock });
    expect((await reset(late.email, await latestOtp(client, late.email))).status).toBe(400);
    expect(await loginStatus(late.email, late.password)).toBe(200);
  });

  it('takes a code once only', async () => {
    const admin = await signUpBusiness(client);
    await forgot(admin.email);
    const otp = await latestOtp(client, admin.email);
    expect((await reset(admin.email, otp)).status).toBe(200);
    expect((await reset(admin.email, otp, 'yet another passphrase')).status).toBe(400);
    expect(await loginStatus(admin.email, NEW_PASSWORD)).toBe(200);
  });

  it('requires a 6-digit code and a new password of at least 8 characters', async () => {
    const reply = await client.request('POST', '/api/v1/auth/reset-password', {
      email: uniqueEmail('x'),
      otp: '12',
      newPassword: 'short',
    });
    expect(reply.status).toBe(400);
    expect((reply.body.errors as string[]).map((message) => message.split(':')[0]).sort()).toEqual([
      'newPassword',
      'otp',
    ]);
  });
});
