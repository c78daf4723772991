import { afterEach, describe, expect, it } from 'vitest';
import { findAccountByEmail } from '#lib/accounts/account-repository.ts';
import { UNVERIFIED_LIFETIME_MS } from '#lib/accounts/address-holder.ts';
import { startSession } from '#lib/accounts/sessions.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { latestOtp, signUpBusiness, uniqueEmail } from '../support/accounts.ts';
import { invite } from '../workspaces/support.ts';
import { businessFields, startOAuthStack } from './oauth-support.ts';

/**
 * Issue 27, findings 1 and 2: someone registers an address they do not own. Whoever proves the address
 * (its mailed code, an invitation sent to it, an OAuth provider vouching for it) gets it, and nothing the
 * registrant chose survives: not the password, not a session, not the workspace.
 */
const { client, provider } = await startOAuthStack();
afterEach(() => installPorts(client.stack.ports));

const ATTACKERS_PASSWORD = 'the attacker chose this';
const VICTIMS_PASSWORD = 'the victim chose this one';

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  client.request('POST', `/api/v1${path}`, body, headers);
const loginStatus = async (email: string, password: string) => (await post('/auth/login', { email, password })).status;

/** The attacker registers the victim's address, a business (with a workspace) unless told otherwise. */
const preRegister = async (email: string, kind: 'business' | 'dev' = 'business') => {
  const body =
    kind === 'business'
      ? { businessName: 'Evil Corp', firstName: 'Mallory', lastName: 'M', email, password: ATTACKERS_PASSWORD }
      : { firstName: 'Mallory', lastName: 'M', email, password: ATTACKERS_PASSWORD, experienceLevel: 'SENIOR' };
  const reply = await post(`/auth/${kind}/register`, body);
  expect(reply.status, reply.text).toBe(201);
  const { table } = client.stack.ports;
  const account = (await findAccountByEmail(table, email))!;
  // An unverified account cannot log in; a session made directly stands for any it might have had.
  return { account, session: await startSession(systemAccountScope(client.stack.ports), account) };
};

const sessionWorks = async (session: { accessToken: string; refreshToken: string }) => ({
  access: (
    await client.request('GET', '/api/v1/business/get_members', undefined, {
      authorization: `Bearer ${session.accessToken}`,
    })
  ).status,
  refresh: (await post('/auth/refresh-token', { refreshToken: session.refreshToken })).status,
});

const workspaceExists = async (workspaceId: string) =>
  (await workspaceRepository(client.stack.ports.table, workspaceId).getWorkspace()) !== undefined;

const shiftClock = (ms: number) => {
  const clock: Clock = { now: () => new Date(Date.now() + ms) };
  installPorts({ ...client.stack.ports, clock });
};

describe('finding 1: a pre-registered address', () => {
  it("refuses a password that is not the registration's, using nothing up; the code alone is the spec's verify", async () => {
    const email = uniqueEmail('victim');
    await preRegister(email);
    expect((await post('/auth/resend_otp', { email })).status).toBe(200);
    const otp = await latestOtp(client, email);
    expect((await client.stack.mailbox.messagesTo(email))[0]?.text).toMatch(/did not register this address/);

    const guessed = await post('/auth/verify_email', { email, otp, password: 'not what the attacker chose' });
    expect(guessed.status).toBe(400);
    expect(guessed.body.errors).toEqual([expect.stringMatching(/^password: /)]);
    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(403);

    // DECISIONS.md's body, email and otp: the registrant verifying their own address keeps their password.
    const codeOnly = await post('/auth/verify_email', { email, otp });
    expect(codeOnly.status, codeOnly.text).toBe(200);
    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(200);
  });

  it("verifying with a new password ends the registrant's password, sessions and workspace", async () => {
    const email = uniqueEmail('victim');
    const { account, session } = await preRegister(email);
    expect((await post('/auth/resend_otp', { email })).status).toBe(200);

    const verified = await post('/auth/verify_email', {
      email,
      otp: await latestOtp(client, email),
      newPassword: VICTIMS_PASSWORD,
    });
    expect(verified.status, verified.text).toBe(200);

    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(401);
    expect(await sessionWorks(session)).toEqual({ access: 401, refresh: 401 });
    expect(await workspaceExists(account.businessId as string)).toBe(false);
    const victim = await post('/auth/login', { email, password: VICTIMS_PASSWORD });
    expect(victim.status).toBe(200);
    expect(victim.body.data.user).toMatchObject({ id: account.id, isVerified: true, businessId: null, roles: [] });
  });

  it("registering again displaces an unverified registration; the registrant's password and workspace are gone", async () => {
    const email = uniqueEmail('victim');
    const { account, session } = await preRegister(email);
    const again = await post('/auth/dev/register', {
      firstName: 'Vic',
      lastName: 'Tim',
      email,
      password: VICTIMS_PASSWORD,
      experienceLevel: 'SENIOR',
    });
    expect(again.status, again.text).toBe(201);
    const otp = await latestOtp(client, email);
    expect((await post('/auth/verify_email', { email, otp, password: VICTIMS_PASSWORD })).status).toBe(200);

    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(401);
    expect(await loginStatus(email, VICTIMS_PASSWORD)).toBe(200);
    expect(await sessionWorks(session)).toEqual({ access: 401, refresh: 401 });
    expect(await workspaceExists(account.businessId as string)).toBe(false);
  });

  it('a password reset of an unverified account is a takeover too', async () => {
    const email = uniqueEmail('victim');
    const { account } = await preRegister(email);
    expect((await post('/auth/forgot-password', { email })).status).toBe(200);
    const reset = await post('/auth/reset-password', {
      email,
      otp: await latestOtp(client, email),
      newPassword: VICTIMS_PASSWORD,
    });
    expect(reset.status, reset.text).toBe(200);
    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(401);
    const victim = await post('/auth/login', { email, password: VICTIMS_PASSWORD });
    expect(victim.body.data.user).toMatchObject({ businessId: null, roles: [] });
    expect(await workspaceExists(account.businessId as string)).toBe(false);
  });

  it('an OAuth register of the address displaces the unverified registration', async () => {
    const email = uniqueEmail('victim');
    const { account } = await preRegister(email);
    const sub = `sub-${email}`;
    const reply = await post('/auth/oauth/business/register', {
      ...businessFields(email),
      provider_uuid: sub,
      oAuthProvider: 'openid',
      idToken: await provider.idToken({ sub, email }),
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data.user.id).not.toBe(account.id);
    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(401);
    expect(await workspaceExists(account.businessId as string)).toBe(false);
  });

  it('an unverified registration lapses after 24 hours and frees the address', async () => {
    const email = uniqueEmail('lapsed');
    const { account } = await preRegister(email, 'dev');
    const mailbox = async () =>
      ((await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as unknown[]).length;
    const mailed = await mailbox();
    shiftClock(UNVERIFIED_LIFETIME_MS + 1000);
    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(401);
    expect((await post('/auth/resend_otp', { email })).status).toBe(200);
    expect(await mailbox()).toBe(mailed);

    const admin = await signUpBusiness(client, { businessName: 'Real Employer' });
    const token = await invite(client, admin, email, 'VIEWER');
    const accepted = await post('/business/accept-invite', {
      token,
      password: VICTIMS_PASSWORD,
      firstName: 'New',
      lastName: 'Hire',
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data.user.id).not.toBe(account.id);
    expect(await loginStatus(email, VICTIMS_PASSWORD)).toBe(200);
  });

  it('a verified address stays its owner’s: registering it again is 409', async () => {
    const owner = await signUpBusiness(client);
    const reply = await post('/auth/dev/register', {
      firstName: 'Mallory',
      lastName: 'M',
      email: owner.email,
      password: ATTACKERS_PASSWORD,
      experienceLevel: 'SENIOR',
    });
    expect(reply.status).toBe(409);
    expect(await loginStatus(owner.email, owner.password)).toBe(200);
  });
});

describe('finding 2: a new hire whose address someone registered a business with', () => {
  it('accepts the real invitation and joins the inviting workspace; the squatted workspace is discarded', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Real Employer' });
    const email = uniqueEmail('new-hire');
    const { account, session } = await preRegister(email);
    const token = await invite(client, admin, email, 'ENGINEER');

    const accepted = await post('/business/accept-invite', {
      token,
      password: VICTIMS_PASSWORD,
      firstName: 'New',
      lastName: 'Hire',
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data.user).toMatchObject({ businessId: admin.user.businessId, roles: ['ENGINEER'] });
    expect(await workspaceExists(account.businessId as string)).toBe(false);
    expect(await sessionWorks(session)).toEqual({ access: 401, refresh: 401 });
    expect(await loginStatus(email, ATTACKERS_PASSWORD)).toBe(401);
    expect(await loginStatus(email, VICTIMS_PASSWORD)).toBe(200);
  });

  it('accepts after first resetting the password, too', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Real Employer' });
    const email = uniqueEmail('new-hire');
    await preRegister(email);
    const token = await invite(client, admin, email, 'VIEWER');
    expect((await post('/auth/forgot-password', { email })).status).toBe(200);
    const otp = (
      (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as {
        subject: string;
        otp?: string;
      }[]
    ).find((message) => message.subject.includes('reset'))?.otp as string;
    expect((await post('/auth/reset-password', { email, otp, newPassword: VICTIMS_PASSWORD })).status).toBe(200);

    const accepted = await post('/business/accept-invite', { token, password: VICTIMS_PASSWORD });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data.user).toMatchObject({ businessId: admin.user.businessId, roles: ['VIEWER'] });
  });
});
