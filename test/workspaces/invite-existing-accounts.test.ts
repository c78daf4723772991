import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccountByEmail } from '#lib/accounts/account-repository.ts';
import { startSession } from '#lib/accounts/sessions.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { signUpBusiness, uniqueEmail, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { PASSWORD, invite, signUpDeveloper } from './support.ts';

let client: TestClient;
let admin: SignedIn;
let workspaceId: string;

const accept = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  client.request('POST', '/api/v1/business/accept-invite', body, headers);
const loginStatus = async (email: string, password: string) =>
  (await client.request('POST', '/api/v1/auth/login', { email, password })).status;
const memberEmails = async () =>
  (
    (await client.request('GET', '/api/v1/business/get_members', undefined, admin.auth)).body.data as {
      email: string;
    }[]
  ).map((member) => member.email);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Acme Ops' });
  workspaceId = admin.user.businessId as string;
});

afterAll(async () => {
  await client.stack.stop();
});

describe('accept-invite for an address that has an unverified account', () => {
  it("hands the account to the mailbox's owner: the stranger's password and sessions stop working", async () => {
    const email = uniqueEmail('invitee');
    const strangersPassword = 'the stranger chose this';
    const registered = await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Mallory',
      lastName: 'Stranger',
      email,
      password: strangersPassword,
      experienceLevel: 'SENIOR',
    });
    expect(registered.status, registered.text).toBe(201);
    // An unverified account cannot log in, but any session it had (however obtained) must end too.
    const { ports } = client.stack;
    const strangersSession = await startSession(
      systemAccountScope(ports),
      (await findAccountByEmail(ports.table, email))!,
    );

    const token = await invite(client, admin, email, 'ADMIN');
    const reply = await accept({ token, password: PASSWORD, firstName: 'Grace', lastName: 'Hopper' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.user).toMatchObject({
      email,
      firstName: 'Grace',
      isVerified: true,
      businessId: workspaceId,
    });

    expect(await loginStatus(email, strangersPassword)).toBe(401);
    expect(
      (await client.request('GET', '/api/v1/business/get_members', undefined, bearer(strangersSession.accessToken)))
        .status,
    ).toBe(401);
    expect(
      (await client.request('POST', '/api/v1/auth/refresh-token', { refreshToken: strangersSession.refreshToken }))
        .status,
    ).toBe(401);
    const invitee = await client.request('POST', '/api/v1/auth/login', { email, password: PASSWORD });
    expect(invitee.status).toBe(200);
    expect(invitee.body.data.user).toMatchObject({ businessId: workspaceId, roles: ['ADMIN'] });
  });

  it("answers 401 for another account's Bearer token, as for a verified account; nothing changes", async () => {
    const email = uniqueEmail('bearer');
    await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Mallory',
      lastName: 'Stranger',
      email,
      password: 'the stranger chose this',
      experienceLevel: 'SENIOR',
    });
    const someoneElse = await signUpDeveloper(client);
    const token = await invite(client, admin, email);
    const reply = await accept({ token, password: PASSWORD, firstName: 'Grace', lastName: 'Hopper' }, someoneElse.auth);
    expect(reply.status).toBe(401);
    expect(reply.body.errors).toEqual([expect.stringMatching(/^authorization: /)]);
    expect(await memberEmails()).not.toContain(email);
    expect(await memberEmails()).not.toContain(someoneElse.email);
    expect((await client.request('POST', '/api/v1/business/decode-invite', { token })).status).toBe(200);
  });

  it('requires the password (400) and changes nothing without it', async () => {
    const email = uniqueEmail('nopassword');
    await client.request('POST', '/api/v1/auth/dev/register', {
      firstName: 'Mallory',
      lastName: 'Stranger',
      email,
      password: 'the stranger chose this',
      experienceLevel: 'SENIOR',
    });
    const token = await invite(client, admin, email);
    const reply = await accept({ token });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([expect.stringMatching(/^password: /)]);
    expect(await memberEmails()).not.toContain(email);
    expect((await client.request('POST', '/api/v1/business/decode-invite', { token })).status).toBe(200);
  });
});

describe('accept-invite for an address that has a verified account', () => {
  it("answers 401 without its Bearer token or password, with a wrong one, or with another account's token; nothing changes", async () => {
    const developer = await signUpDeveloper(client);
    const someoneElse = await signUpDeveloper(client);
    const token = await invite(client, admin, developer.email, 'ADMIN');
    const attempts = [
      ['no credentials', {}, {}],
      ['a wrong password', { password: 'not the password at all' }, {}],
      ["another account's token", {}, someoneElse.auth],
      ["another account's token and a wrong password", { password: 'not the password at all' }, someoneElse.auth],
    ] as const;
    for (const [name, body, headers] of attempts) {
      const reply = await accept({ token, ...body }, headers);
      expect(reply.status, name).toBe(401);
      expect(reply.body.success, name).toBe(false);
    }
    expect(await memberEmails()).not.toContain(developer.email);
    expect(await loginStatus(developer.email, PASSWORD)).toBe(200);
    expect((await client.request('POST', '/api/v1/business/decode-invite', { token })).status).toBe(200);
  });

  it('joins with its Bearer token; the same token then has the workspace', async () => {
    const developer = await signUpDeveloper(client);
    const token = await invite(client, admin, developer.email, 'VIEWER');
    const reply = await accept({ token }, developer.auth);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({
      user: { id: developer.user.id, accountType: 'DEVELOPER', businessId: workspaceId, roles: ['VIEWER'] },
      businessId: workspaceId,
      role: 'VIEWER',
    });
    expect((await client.request('GET', '/api/v1/business/get_members', undefined, developer.auth)).status).toBe(200);
    const denied = await client.request(
      'POST',
      '/api/v1/business/send-invite',
      { email: uniqueEmail(), role: 'VIEWER', accessPermissions: [] },
      developer.auth,
    );
    expect(denied.status).toBe(403);
  });

  it('joins with its password, which stays the password', async () => {
    const developer = await signUpDeveloper(client);
    const token = await invite(client, admin, developer.email, 'ENGINEER');
    const reply = await accept({ token, password: PASSWORD, firstName: 'Ignored', lastName: 'Ignored' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.user).toMatchObject({ id: developer.user.id, firstName: 'Linus', roles: ['ENGINEER'] });
    expect(await memberEmails()).toContain(developer.email);
    expect(await loginStatus(developer.email, PASSWORD)).toBe(200);
  });
});
