import { UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts.ts';
import type { IdTokenOptions } from '../support/fake-identity-provider.ts';
import { developerFields, expectRefused, startOAuthStack } from './oauth-support.ts';

const { client, provider } = await startOAuthStack();

let nextSub = 0;
const person = () => ({
  email: uniqueEmail('oidc'),
  providerUuid: `oidc-sub-${Date.now().toString(36)}-${(nextSub += 1)}`,
});

const register = (who: { email: string; providerUuid: string }, idToken: string) =>
  client.request('POST', '/api/v1/auth/oauth/dev/register', {
    ...developerFields(who.email),
    provider_uuid: who.providerUuid,
    oAuthProvider: 'openid',
    idToken,
  });

const login = (who: { email: string; providerUuid: string }, idToken: string) =>
  client.request('POST', '/api/v1/auth/oauth/login', {
    email: who.email,
    provider_uuid: who.providerUuid,
    oAuthProvider: 'openid',
    idToken,
  });

const tokenFor = (who: { email: string; providerUuid: string }, options: Partial<IdTokenOptions> = {}) =>
  provider.idToken({ sub: who.providerUuid, email: who.email, ...options });

describe('OAuth with an OpenID Connect ID token', () => {
  it('registers a verified developer with tokens, then signs it in with a fresh ID token', async () => {
    const who = person();
    const registered = await register(who, await tokenFor(who));
    expect(registered.status, registered.text).toBe(201);
    const { data } = registered.body;
    expect(data.user).toMatchObject({
      email: who.email,
      accountType: 'DEVELOPER',
      isVerified: true,
      businessId: null,
      roles: [],
    });
    expect(data.tokens).toEqual({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    const authenticated = await client.request('GET', '/api/v1/business/get_members', undefined, {
      authorization: `Bearer ${data.accessToken}`,
    });
    expect(
      authenticated.status,
      'the token authenticates (the route itself refuses an account without a workspace)',
    ).toBe(403);

    const signedIn = await login({ ...who, email: who.email.toUpperCase() }, await tokenFor(who));
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.data.user).toMatchObject({ id: data.user.id, email: who.email });
    expect(signedIn.body.data.refreshToken).toEqual(expect.any(String));
    // The console's session cookie, as a password login sets it (docs/decisions.md).
    for (const [reply, token] of [
      [registered, data.refreshToken],
      [signedIn, signedIn.body.data.refreshToken],
    ]) {
      expect(reply.headers.get('set-cookie')).toBe(
        `ims_refresh=${token}; Path=/api/v1/auth; Max-Age=${7 * 24 * 3600}; HttpOnly; Secure; SameSite=Strict`,
      );
    }
  });

  it('refuses every forged, expired or mismatched ID token with 401 and writes nothing', async () => {
    const cases: [string, (who: { email: string; providerUuid: string }) => Promise<string>, string][] = [
      ['expired', (who) => tokenFor(who, { expiresIn: -120 }), 'idToken: has expired'],
      [
        'for another client',
        (who) => tokenFor(who, { aud: 'someone-elses-app' }),
        'idToken: was issued for another client',
      ],
      [
        'for several clients, authorized to another',
        (who) => tokenFor(who, { aud: ['incident-service-test', 'other'], azp: 'other' }),
        'idToken: was issued for another client',
      ],
      [
        'from another issuer',
        (who) => tokenFor(who, { iss: 'https://evil.example' }),
        'idToken: was not issued by openid',
      ],
      [
        'about another subject',
        (who) => tokenFor(who, { sub: 'somebody-else' }),
        'idToken: its subject is not provider_uuid',
      ],
      [
        'for another address',
        (who) => tokenFor(who, { email: uniqueEmail('other') }),
        'idToken: its email is not the email of the request',
      ],
      [
        'with an unverified address',
        (who) => tokenFor(who, { email_verified: false }),
        'idToken: openid has not verified its email',
      ],
      [
        'signed by another key under the provider’s key id',
        (who) => tokenFor(who, { signedBy: 'stranger-same-kid' }),
        'idToken: is not signed by openid',
      ],
      [
        'signed by a key the provider never published',
        (who) => tokenFor(who, { signedBy: 'stranger' }),
        'idToken: is not signed by openid',
      ],
      [
        'unsigned (alg none)',
        async (who) =>
          new UnsecuredJWT({ email: who.email, email_verified: true })
            .setIssuer(provider.url)
            .setAudience('incident-service-test')
            .setSubject(who.providerUuid)
            .setExpirationTime('1h')
            .encode(),
        'idToken: is not signed by openid',
      ],
      ['not a token at all', async () => 'not.a.jwt', 'idToken: is not a valid ID token'],
    ];
    for (const [label, mint, problem] of cases) {
      const who = person();
      const reply = await register(who, await mint(who));
      await expectRefused(client, reply, 401, who);
      expect(reply.body, label).toMatchObject({ message: 'Invalid OAuth credentials', errors: [problem] });
    }
  });

  it('signs nobody in with a proof of someone else, or of an identity never registered', async () => {
    const alice = person();
    expect((await register(alice, await tokenFor(alice))).status).toBe(201);
    const mallory = person();
    const malloryToken = await tokenFor(mallory);
    const attempts = [
      // Alice's address and provider id, Mallory's valid token.
      { who: alice, idToken: malloryToken },
      // Mallory's own provider id, Alice's address.
      { who: { email: alice.email, providerUuid: mallory.providerUuid }, idToken: malloryToken },
      // A valid proof of an identity that has no account.
      { who: mallory, idToken: malloryToken },
    ];
    for (const { who, idToken } of attempts) {
      const reply = await login(who, idToken);
      expect(reply.status, reply.text).toBe(401);
      expect(reply.body.data).toBeUndefined();
    }
  });

  it('answers 503, writing nothing, when the provider cannot be reached', async () => {
    const who = person();
    const reply = await client.request('POST', '/api/v1/auth/oauth/dev/register', {
      ...developerFields(who.email),
      provider_uuid: who.providerUuid,
      oAuthProvider: 'openid-offline',
      idToken: await tokenFor(who),
    });
    await expectRefused(client, reply, 503, who);
    expect(reply.body).toMatchObject({
      message: 'OAuth provider unavailable, try again later',
      errors: ['oAuthProvider: openid-offline did not answer'],
    });
  });

  it('reads the discovery document and the keys once, not at every sign-in', async () => {
    const before = provider.requests.filter(
      (line) => line.includes('openid-configuration') || line.includes('/jwks'),
    ).length;
    for (let i = 0; i < 3; i += 1) {
      const who = person();
      expect((await register(who, await tokenFor(who))).status).toBe(201);
    }
    const after = provider.requests.filter(
      (line) => line.includes('openid-configuration') || line.includes('/jwks'),
    ).length;
    expect(after - before).toBe(0);
  });
});
