import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts.ts';
import type { FakeUser } from '../support/fake-identity-provider.ts';
import { codeHostUser, developerFields, expectRefused, startOAuthStack } from './oauth-support.ts';

const { client, provider } = await startOAuthStack();

type CodeHostUser = ReturnType<typeof codeHostUser>;

const register = (who: { email: string; providerUuid: string }, accessToken: string, oAuthProvider = 'codehost-a') =>
  client.request('POST', '/api/v1/auth/oauth/dev/register', {
    ...developerFields(who.email),
    provider_uuid: who.providerUuid,
    oAuthProvider,
    accessToken,
  });

const login = (who: { email: string; providerUuid: string }, accessToken: string) =>
  client.request('POST', '/api/v1/auth/oauth/login', {
    email: who.email,
    provider_uuid: who.providerUuid,
    oAuthProvider: 'codehost-a',
    accessToken,
  });

describe('OAuth with a code host A access token', () => {
  it('registers a verified developer, then signs it in, asking the provider’s user API both times', async () => {
    const user = codeHostUser();
    const seen = provider.requests.length;
    const registered = await register(user, provider.accessToken(user));
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.data.user).toMatchObject({ email: user.email, isVerified: true, accountType: 'DEVELOPER' });
    expect(provider.requests.slice(seen).sort()).toEqual(['GET /api/user', 'GET /api/user/emails']);

    const signedIn = await login(user, provider.accessToken(user));
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.data.user.id).toBe(registered.body.data.user.id);
    expect(signedIn.body.data.accessToken).toEqual(expect.any(String));
  });

  it('refuses a token the provider does not know, or whose owner is not the one claimed, with 401 and writes nothing', async () => {
    const someoneElse = codeHostUser();
    const cases: [string, (user: CodeHostUser) => string, string][] = [
      ['unknown to the provider', () => 'gho_never_issued', 'accessToken: codehost-a does not accept it'],
      [
        'owned by another user',
        () => provider.accessToken(someoneElse),
        'accessToken: belongs to another user than provider_uuid',
      ],
      [
        'whose owner has not verified the address',
        (user) =>
          provider.accessToken({ id: user.id, emails: [{ email: user.email, verified: false, primary: true }] }),
        'accessToken: email is not a verified address of this codehost-a user',
      ],
      [
        'whose owner does not have the address',
        (user) =>
          provider.accessToken({ id: user.id, emails: [{ email: uniqueEmail('own'), verified: true, primary: true }] }),
        'accessToken: email is not a verified address of this codehost-a user',
      ],
    ];
    for (const [label, mint, problem] of cases) {
      const user = codeHostUser();
      const reply = await register(user, mint(user));
      await expectRefused(client, reply, 401, user);
      expect(reply.body, label).toMatchObject({ message: 'Invalid OAuth credentials', errors: [problem] });
    }
  });

  it('signs nobody in with the public id of someone else and the caller’s own token', async () => {
    const victim = codeHostUser();
    expect((await register(victim, provider.accessToken(victim))).status).toBe(201);
    const attacker: FakeUser = { id: 42, emails: [{ email: victim.email, verified: false, primary: false }] };
    for (const token of [provider.accessToken(attacker), provider.accessToken(codeHostUser())]) {
      const reply = await login(victim, token);
      expect(reply.status, reply.text).toBe(401);
      expect(reply.body.data).toBeUndefined();
    }
  });

  it('answers 503 and writes nothing while the provider fails or is down, and works again after', async () => {
    const user = codeHostUser();
    provider.fault('error');
    try {
      await expectRefused(client, await register(user, provider.accessToken(user)), 503, user);
      expect((await login(user, provider.accessToken(user))).status).toBe(503);
    } finally {
      provider.fault(undefined);
    }
    const down = await register(user, provider.accessToken(user), 'codehost-offline');
    await expectRefused(client, down, 503, user);
    expect(down.body.errors).toEqual(['oAuthProvider: codehost-offline did not answer']);

    expect((await register(user, provider.accessToken(user))).status).toBe(201);
  });
});
