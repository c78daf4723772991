import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { OAuthIdentityTakenError, createAccount } from '#lib/accounts/account-repository.ts';
import { oauthClaimKey } from '#lib/accounts/account-repository.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { uniqueEmail } from '../support/accounts.ts';
import {
  businessFields,
  codeHostUser,
  developerFields,
  expectRefused,
  itemsAbout,
  startOAuthStack,
} from './oauth-support.ts';

const { client, provider } = await startOAuthStack();

const REGISTERS = ['/api/v1/auth/oauth/dev/register', '/api/v1/auth/oauth/business/register'] as const;
const fieldsFor = (path: string, email: string) =>
  path.includes('/dev/') ? developerFields(email) : businessFields(email);

describe('the original probe: anyone’s address and an invented provider id, without proof', () => {
  it('creates no account, verified or not, and signs nobody in', async () => {
    for (const path of REGISTERS) {
      const email = uniqueEmail('victim');
      const probe = { ...fieldsFor(path, email), provider_uuid: '583231', oAuthProvider: 'codehost-a' };
      const reply = await client.request('POST', path, probe);
      await expectRefused(client, reply, 401, { email, providerUuid: '583231' });
      expect(reply.body).toMatchObject({
        message: 'Invalid OAuth credentials',
        errors: ['accessToken: is required, the proof that codehost-a vouches for this identity'],
      });
    }
    const login = await client.request('POST', '/api/v1/auth/oauth/login', {
      email: uniqueEmail('victim'),
      provider_uuid: '583231',
      oAuthProvider: 'codehost-a',
    });
    expect(login.status).toBe(401);
    expect(login.body.data).toBeUndefined();
  });

  it('still refuses when the request carries a made-up token: 401, nothing written', async () => {
    const email = uniqueEmail('victim');
    const reply = await client.request('POST', REGISTERS[0], {
      ...developerFields(email),
      provider_uuid: '583231',
      oAuthProvider: 'codehost-a',
      accessToken: 'gho_madeup',
    });
    await expectRefused(client, reply, 401, { email, providerUuid: '583231' });
    expect(reply.body).toMatchObject({
      message: 'Invalid OAuth credentials',
      errors: ['accessToken: codehost-a does not accept it'],
    });
  });
});

describe('what a request must carry', () => {
  it('lists the missing fields, and refuses both proofs at once', async () => {
    const missing = await client.request('POST', REGISTERS[1], { email: uniqueEmail('o') });
    expect(missing.status).toBe(400);
    const fields = (missing.body.errors as string[]).map((message) => message.split(':')[0]).sort();
    expect(fields).toEqual(['businessName', 'firstName', 'lastName', 'oAuthProvider', 'provider_uuid']);

    const user = codeHostUser();
    const both = await client.request('POST', REGISTERS[0], {
      ...developerFields(user.email),
      provider_uuid: user.providerUuid,
      oAuthProvider: 'codehost-a',
      accessToken: provider.accessToken(user),
      idToken: await provider.idToken({ sub: user.providerUuid, email: user.email }),
    });
    await expectRefused(client, both, 400, user);
    expect(both.body.errors).toEqual(['idToken: give one proof, idToken or accessToken, not both']);
  });

  it('names a provider this deployment does not know, on every OAuth route', async () => {
    const user = codeHostUser();
    const claim = {
      provider_uuid: user.providerUuid,
      oAuthProvider: 'Nowhere',
      accessToken: provider.accessToken(user),
    };
    for (const [path, fields] of [
      [REGISTERS[0], developerFields(user.email)],
      [REGISTERS[1], businessFields(user.email)],
      ['/api/v1/auth/oauth/login', { email: user.email }],
    ] as const) {
      const reply = await client.request('POST', path, { ...fields, ...claim });
      await expectRefused(client, reply, 400, user);
      expect(reply.body).toMatchObject({
        message: 'Unknown OAuth provider',
        errors: ['oAuthProvider: Nowhere is not configured'],
      });
    }
  });

  it('asks for the proof the provider gives: an ID token of an OpenID provider, an access token of code host A', async () => {
    const user = codeHostUser();
    const idToken = await provider.idToken({ sub: user.providerUuid, email: user.email });
    const accessToken = provider.accessToken(user);
    const attempts = [
      { oAuthProvider: 'openid', accessToken, expected: 'idToken: openid signs in with an ID token' },
      { oAuthProvider: 'codehost-a', idToken, expected: 'accessToken: codehost-a signs in with an access token' },
    ];
    for (const { expected, ...attempt } of attempts) {
      const reply = await client.request('POST', REGISTERS[0], {
        ...developerFields(user.email),
        provider_uuid: user.providerUuid,
        ...attempt,
      });
      await expectRefused(client, reply, 400, user);
      expect(reply.body.errors).toEqual([expected]);
    }
  });
});

describe('registration with a proof that holds', () => {
  it('creates a verified business account, ADMIN of its new workspace, with tokens and no mail', async () => {
    const user = codeHostUser();
    const reply = await client.request('POST', REGISTERS[1], {
      ...businessFields(user.email),
      timezone: 'UTC',
      provider_uuid: user.providerUuid,
      oAuthProvider: 'CodeHost-A',
      accessToken: provider.accessToken(user),
    });
    expect(reply.status, reply.text).toBe(201);
    const { user: account, accessToken, refreshToken } = reply.body.data;
    expect(account).toMatchObject({ email: user.email, accountType: 'BUSINESS', isVerified: true, roles: ['ADMIN'] });
    expect(accessToken).toEqual(expect.any(String));
    expect(refreshToken).toEqual(expect.any(String));
    expect(await workspaceRepository(client.stack.ports.table, account.businessId).getWorkspace()).toMatchObject({
      timezone: 'UTC',
    });
    const mail = await client.request('GET', `/_local/mailbox?to=${encodeURIComponent(user.email)}`);
    expect(mail.body.data).toEqual([]);

    const passwordLogin = await client.request('POST', '/api/v1/auth/login', {
      email: user.email,
      password: 'anything-at-all',
    });
    expect(passwordLogin.status).toBe(401);
  });

  it('answers 409 for an identity already registered, and for an address already taken, writing nothing more', async () => {
    const user = codeHostUser();
    const register = (email: string, accessToken: string) =>
      client.request('POST', REGISTERS[0], {
        ...developerFields(email),
        provider_uuid: user.providerUuid,
        oAuthProvider: 'codehost-a',
        accessToken,
      });
    expect((await register(user.email, provider.accessToken(user))).status).toBe(201);
    const before = await itemsAbout(client, user.email, user.providerUuid);

    const again = await register(user.email, provider.accessToken(user));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: 'OAuth identity already registered' });

    // The same person, who has since added and verified another address at the provider.
    const newAddress = uniqueEmail('moved');
    user.emails.push({ email: newAddress, verified: true, primary: false });
    const sameIdentity = await register(newAddress, provider.accessToken(user));
    expect(sameIdentity.status).toBe(409);
    expect(await itemsAbout(client, newAddress)).toEqual([]);

    const other = codeHostUser(user.email);
    const sameAddress = await client.request('POST', REGISTERS[0], {
      ...developerFields(user.email),
      provider_uuid: other.providerUuid,
      oAuthProvider: 'codehost-a',
      accessToken: provider.accessToken(other),
    });
    expect(sameAddress.status).toBe(409);
    expect(sameAddress.body).toMatchObject({ message: 'Email already registered' });
    expect(await itemsAbout(client, user.email, user.providerUuid, other.providerUuid)).toEqual(before);
  });
});

describe('the claims that keep an OAuth identity to one account', () => {
  const table = client.stack.ports.table;
  const accountFor = (email: string, providerUuid: string) => ({
    id: `race-${providerUuid}-${email}`,
    email,
    firstName: 'Grace',
    lastName: 'Hopper',
    isVerified: true,
    accountType: 'DEVELOPER' as const,
    businessId: null,
    roles: [],
    oauth: { provider: 'codehost-a', providerUuid },
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  });

  it('gives the address back when a registration loses the race for its identity', async () => {
    const user = codeHostUser();
    const first = await client.request('POST', REGISTERS[0], {
      ...developerFields(user.email),
      provider_uuid: user.providerUuid,
      oAuthProvider: 'codehost-a',
      accessToken: provider.accessToken(user),
    });
    expect(first.status).toBe(201);
    const loser = uniqueEmail('loser');
    await expect(createAccount(table, accountFor(loser, user.providerUuid))).rejects.toBeInstanceOf(
      OAuthIdentityTakenError,
    );
    expect(await itemsAbout(client, loser)).toEqual([]);
  });

  it('lets the next registration take over an identity claim a crash left without an account', async () => {
    const user = codeHostUser();
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: { ...oauthClaimKey('codehost-a', user.providerUuid), type: 'OAUTH_CLAIM', accountId: 'never-written' },
      }),
    );
    const reply = await client.request('POST', REGISTERS[0], {
      ...developerFields(user.email),
      provider_uuid: user.providerUuid,
      oAuthProvider: 'codehost-a',
      accessToken: provider.accessToken(user),
    });
    expect(reply.status, reply.text).toBe(201);
    const login = await client.request('POST', '/api/v1/auth/oauth/login', {
      email: user.email,
      provider_uuid: user.providerUuid,
      oAuthProvider: 'codehost-a',
      accessToken: provider.accessToken(user),
    });
    expect(login.status).toBe(200);
    expect(login.body.data.user.id).toBe(reply.body.data.user.id);
  });
});
