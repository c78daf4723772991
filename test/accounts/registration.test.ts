import { afterAll, describe, expect, it } from 'vitest';
import { getMember, getWorkspace } from '#lib/workspaces/workspace-repository.ts';
import { startTestStack } from '../support/local-stack.ts';
import { latestOtp, login, signUpBusiness, uniqueEmail } from '../support/accounts.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());

const PASSWORD = 'correct horse battery staple';

const business = (overrides: Record<string, unknown> = {}) => ({
  businessName: 'Acme Ops',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: uniqueEmail('biz'),
  password: PASSWORD,
  ...overrides,
});

const developer = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: uniqueEmail('dev'),
  password: PASSWORD,
  experienceLevel: 'SENIOR',
  ...overrides,
});

const mailTo = async (email: string) =>
  (await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(email)}`)).body.data as { otp?: string }[];

describe('POST /auth/business/register', () => {
  it('creates an unverified BUSINESS account that is ADMIN of a new workspace, and mails a code', async () => {
    const body = business({ industry: 'Fintech', size: '11-50', timezone: 'Europe/Berlin' });
    const reply = await client.request('POST', '/api/v1/auth/business/register', body);

    expect(reply.status).toBe(201);
    expect(reply.body.success).toBe(true);
    const user = reply.body.data.user;
    expect(user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: body.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      isVerified: false,
      accountType: 'BUSINESS',
      businessId: expect.any(String),
      roles: ['ADMIN'],
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(reply.body)).not.toMatch(/passwordHash|scrypt/);

    const table = client.stack.runtime.table;
    expect(await getWorkspace(table, user.businessId)).toMatchObject({
      businessName: 'Acme Ops',
      industry: 'Fintech',
      size: '11-50',
      timezone: 'Europe/Berlin',
    });
    expect(await getMember(table, user.businessId, user.id)).toMatchObject({ role: 'ADMIN', email: body.email });
    expect(await latestOtp(client, body.email)).toMatch(/^\d{6}$/);
  });

  it('answers 409 for an address already registered, in any letter case, and mails no second code', async () => {
    const email = uniqueEmail('taken');
    expect((await client.request('POST', '/api/v1/auth/business/register', business({ email }))).status).toBe(201);
    const again = await client.request(
      'POST',
      '/api/v1/auth/business/register',
      business({ email: `  ${email.toUpperCase()} `, businessName: 'Other' }),
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, message: 'Email already registered' });
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('reports every missing or bad field at once with 400', async () => {
    const reply = await client.request('POST', '/api/v1/auth/business/register', {
      email: 'not-an-address',
      password: 'short',
    });
    expect(reply.status).toBe(400);
    const fields = (reply.body.errors as string[]).map((message) => message.split(':')[0]);
    expect(fields.sort()).toEqual(['businessName', 'email', 'firstName', 'lastName', 'password']);
  });

  it('accepts IANA zone names, aliases included, and rejects unknown zones and bare offsets with 400', async () => {
    for (const timezone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      const reply = await client.request('POST', '/api/v1/auth/business/register', business({ timezone }));
      expect(reply.status, timezone).toBe(201);
    }
    for (const timezone of ['Mars/Olympus_Mons', '+01:00', '']) {
      const email = uniqueEmail('tz');
      const reply = await client.request('POST', '/api/v1/auth/business/register', business({ email, timezone }));
      expect(reply.status, timezone).toBe(400);
      expect(reply.body.errors).toEqual([expect.stringMatching(/^timezone: /)]);
      const retry = await client.request('POST', '/api/v1/auth/business/register', business({ email }));
      expect(retry.status, 'nothing was written by the rejected request').toBe(201);
    }
  });

  it('is what the shared test helper signUpBusiness relies on: register, verify, login', async () => {
    const admin = await signUpBusiness(client);
    expect(admin.user.roles).toEqual(['ADMIN']);
    expect(admin.user.businessId).toEqual(expect.any(String));
    expect(admin.accessToken).toEqual(expect.any(String));
    expect(admin.refreshToken).toEqual(expect.any(String));
  });
});

describe('POST /auth/dev/register', () => {
  it('creates an unverified DEVELOPER account without a workspace and mails a code', async () => {
    const body = developer({ githubUsername: 'ghopper' });
    const reply = await client.request('POST', '/api/v1/auth/dev/register', body);
    expect(reply.status).toBe(201);
    expect(reply.body.data.user).toMatchObject({
      email: body.email,
      accountType: 'DEVELOPER',
      isVerified: false,
      businessId: null,
      roles: [],
    });
    const otp = await latestOtp(client, body.email);
    expect((await client.request('POST', '/api/v1/auth/verify_email', { email: body.email, otp })).status).toBe(200);
    const signedIn = await login(client, body.email, PASSWORD);
    expect(signedIn.user).toMatchObject({ businessId: null, roles: [] });
  });

  it('requires experienceLevel and an 8-character password', async () => {
    const reply = await client.request('POST', '/api/v1/auth/dev/register', developer({ experienceLevel: undefined, password: '1234567' }));
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^experienceLevel: /), expect.stringMatching(/^password: /)]),
    );
    const eight = await client.request('POST', '/api/v1/auth/dev/register', developer({ password: '12345678' }));
    expect(eight.status).toBe(201);
  });

  it('answers 409 for an address a business account already uses', async () => {
    const email = uniqueEmail('both');
    expect((await client.request('POST', '/api/v1/auth/business/register', business({ email }))).status).toBe(201);
    expect((await client.request('POST', '/api/v1/auth/dev/register', developer({ email }))).status).toBe(409);
  });
});

describe('OAuth registration and login', () => {
  const oauth = (overrides: Record<string, unknown> = {}) => ({
    provider_uuid: `uuid-${Math.random().toString(36).slice(2)}`,
    oAuthProvider: 'codehost-a',
    ...overrides,
  });

  it('registers a verified developer without a password and signs it in', async () => {
    const { password: _password, ...fields } = developer();
    const identity = oauth();
    const reply = await client.request('POST', '/api/v1/auth/oauth/dev/register', { ...fields, ...identity });
    expect(reply.status).toBe(201);
    const data = reply.body.data;
    expect(data.user).toMatchObject({ email: fields.email, accountType: 'DEVELOPER', isVerified: true, businessId: null });
    expect(data.tokens).toEqual({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    expect(await mailTo(fields.email)).toEqual([]);

    const members = await client.request('GET', '/api/v1/business/get_members', undefined, {
      authorization: `Bearer ${data.accessToken}`,
    });
    expect(members.status, 'the token authenticates (the route itself may refuse a developer)').not.toBe(401);

    const passwordLogin = await client.request('POST', '/api/v1/auth/login', { email: fields.email, password: 'anything-at-all' });
    expect(passwordLogin.status).toBe(401);
    expect(passwordLogin.body.message).toBe('Invalid email or password');
  });

  it('registers a business with its workspace and the account as ADMIN', async () => {
    const { password: _password, ...fields } = business({ timezone: 'UTC' });
    const reply = await client.request('POST', '/api/v1/auth/oauth/business/register', { ...fields, ...oauth() });
    expect(reply.status).toBe(201);
    const { user } = reply.body.data;
    expect(user).toMatchObject({ accountType: 'BUSINESS', isVerified: true, roles: ['ADMIN'] });
    expect(await getWorkspace(client.stack.runtime.table, user.businessId)).toMatchObject({ businessName: 'Acme Ops', timezone: 'UTC' });
    expect(reply.body.data.accessToken).toEqual(expect.any(String));
  });

  it('requires provider_uuid and oAuthProvider, and the business fields', async () => {
    const reply = await client.request('POST', '/api/v1/auth/oauth/business/register', { email: uniqueEmail('o') });
    expect(reply.status).toBe(400);
    const fields = (reply.body.errors as string[]).map((message) => message.split(':')[0]).sort();
    expect(fields).toEqual(['businessName', 'firstName', 'lastName', 'oAuthProvider', 'provider_uuid']);
  });

  it('answers 409 for a taken address and for an identity already linked to another account', async () => {
    const { password: _password, ...fields } = developer();
    const identity = oauth();
    expect((await client.request('POST', '/api/v1/auth/oauth/dev/register', { ...fields, ...identity })).status).toBe(201);
    const sameEmail = await client.request('POST', '/api/v1/auth/oauth/dev/register', { ...fields, ...oauth() });
    expect(sameEmail.status).toBe(409);
    const sameIdentity = await client.request('POST', '/api/v1/auth/oauth/dev/register', {
      ...fields,
      email: uniqueEmail('other'),
      ...identity,
    });
    expect(sameIdentity.status).toBe(409);
  });

  it('signs in only with the registered pairing of address, provider and provider id', async () => {
    const { password: _password, ...fields } = developer();
    const identity = oauth();
    expect((await client.request('POST', '/api/v1/auth/oauth/dev/register', { ...fields, ...identity })).status).toBe(201);

    const ok = await client.request('POST', '/api/v1/auth/oauth/login', { email: fields.email.toUpperCase(), ...identity });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.email).toBe(fields.email);
    expect(ok.body.data.tokens.refreshToken).toBe(ok.body.data.refreshToken);

    const victim = await signUpBusiness(client);
    const attempts = [
      { email: victim.email, ...identity },
      { email: fields.email, ...identity, provider_uuid: 'someone-else' },
      { email: fields.email, ...identity, oAuthProvider: 'codehost-b' },
      { email: victim.email, provider_uuid: 'never-registered', oAuthProvider: 'codehost-a' },
    ];
    for (const attempt of attempts) {
      const reply = await client.request('POST', '/api/v1/auth/oauth/login', attempt);
      expect(reply.status, JSON.stringify(attempt)).toBe(401);
      expect(reply.body.data).toBeUndefined();
    }
    expect((await client.request('POST', '/api/v1/auth/oauth/login', { email: fields.email })).status).toBe(400);
  });
});
