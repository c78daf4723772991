import { afterAll, describe, expect, it } from 'vitest';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
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

    const table = client.stack.ports.table;
    expect(await workspaceRepository(table, user.businessId).getWorkspace()).toMatchObject({
      businessName: 'Acme Ops',
      industry: 'Fintech',
      size: '11-50',
      timezone: 'Europe/Berlin',
    });
    expect(await workspaceRepository(table, user.businessId).getMember(user.id)).toMatchObject({
      role: 'ADMIN',
      email: body.email,
    });
    expect(await latestOtp(client, body.email)).toMatch(/^\d{6}$/);
  });

  it('answers 409 for an address a verified account holds, in any letter case, and mails no code', async () => {
    const { email } = await signUpBusiness(client);
    const mailed = (await mailTo(email)).length;
    const again = await client.request(
      'POST',
      '/api/v1/auth/business/register',
      business({ email: `  ${email.toUpperCase()} `, businessName: 'Other' }),
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, message: 'Email already registered' });
    expect(await mailTo(email)).toHaveLength(mailed);
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
    expect(
      (await client.request('POST', '/api/v1/auth/verify_email', { email: body.email, otp, password: PASSWORD }))
        .status,
    ).toBe(200);
    const signedIn = await login(client, body.email, PASSWORD);
    expect(signedIn.user).toMatchObject({ businessId: null, roles: [] });
  });

  it('requires experienceLevel and an 8-character password', async () => {
    const reply = await client.request(
      'POST',
      '/api/v1/auth/dev/register',
      developer({ experienceLevel: undefined, password: '1234567' }),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^experienceLevel: /), expect.stringMatching(/^password: /)]),
    );
    const eight = await client.request('POST', '/api/v1/auth/dev/register', developer({ password: '12345678' }));
    expect(eight.status).toBe(201);
  });

  it('answers 409 for an address a verified business account uses', async () => {
    const { email } = await signUpBusiness(client);
    expect((await client.request('POST', '/api/v1/auth/dev/register', developer({ email }))).status).toBe(409);
  });
});
