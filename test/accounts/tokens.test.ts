import { afterAll, describe, expect, it } from 'vitest';
import { issueAccessToken, issueRefreshToken } from '#lib/accounts/tokens.ts';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import { startTestStack } from '../support/local-stack.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());

const keys = client.stack.runtime.signingKeys;
const MINUTE = 60_000;

const refresh = (refreshToken: unknown) => client.request('POST', '/api/v1/auth/refresh-token', { refreshToken });
const members = (token: string) =>
  client.request('GET', '/api/v1/business/get_members', undefined, { authorization: `Bearer ${token}` });
const login = async (admin: SignedIn) =>
  (await client.request('POST', '/api/v1/auth/login', { email: admin.email, password: admin.password })).body.data as {
    accessToken: string;
    refreshToken: string;
  };

/** Keys under the same key id as the real ones, with another secret: a forger who knows the kid. */
const forgedKeys = async (): Promise<SigningKeys> => {
  const { kid } = await keys.current();
  const key = { kid, secret: new TextEncoder().encode('not-the-signing-secret-not-the-signing-secret') };
  return { current: async () => key, find: async () => key };
};

const part = (token: string, index: number) => token.split('.')[index]!;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString()) as Record<string, unknown>;

describe('POST /auth/refresh-token', () => {
  it('returns a new access token and a new refresh token, both flat and under tokens', async () => {
    const admin = await signUpBusiness(client);
    const reply = await refresh(admin.refreshToken);
    expect(reply.status).toBe(200);
    const data = reply.body.data;
    expect(data.refreshToken).not.toBe(admin.refreshToken);
    expect(data.tokens).toEqual({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    expect((await members(data.accessToken)).status).not.toBe(401);
    expect((await refresh(data.refreshToken)).status).toBe(200);
  });

  it('treats a retired token as stolen: 401, and the newest token of that login dies too', async () => {
    const admin = await signUpBusiness(client);
    const other = await login(admin);
    const first = admin.refreshToken;
    const second = (await refresh(first)).body.data.refreshToken as string;
    const third = (await refresh(second)).body.data.refreshToken as string;

    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect(reused.body.message).toMatch(/already used/i);
    expect((await refresh(third)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status, 'another login of the same account is untouched').toBe(200);
  });

  it('lets one of two concurrent refreshes with the same token win and revokes the login', async () => {
    const admin = await signUpBusiness(client);
    const replies = await Promise.all([refresh(admin.refreshToken), refresh(admin.refreshToken)]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 401]);
    const winner = replies.find((reply) => reply.status === 200)!.body.data.refreshToken as string;
    expect((await refresh(winner)).status).toBe(401);
  });

  it('refuses an access token, a forged, tampered, expired or unknown-login token, and garbage, with 401', async () => {
    const admin = await signUpBusiness(client);
    const payload = decode(part(admin.refreshToken, 1));
    const [accountId, familyId, generation] = [admin.user.id, payload.fam as string, 0];
    const tampered = [part(admin.refreshToken, 0), encode({ ...payload, gen: 5 }), part(admin.refreshToken, 2)].join('.');
    const candidates = {
      access: admin.accessToken,
      forged: await issueRefreshToken(await forgedKeys(), { accountId, familyId, generation }, new Date()),
      tampered,
      expired: await issueRefreshToken(keys, { accountId, familyId, generation }, new Date(Date.now() - 8 * 24 * 60 * MINUTE)),
      unknownLogin: await issueRefreshToken(keys, { accountId, familyId: '01UNKNOWNFAMILY00000000000', generation }, new Date()),
      garbage: 'not-a-token',
    };
    for (const [name, token] of Object.entries(candidates)) {
      expect((await refresh(token)).status, name).toBe(401);
    }
    expect((await refresh(admin.refreshToken)).status, 'none of that revoked the real login').toBe(200);
  });

  it('refuses a validly signed token of the current generation that is not the one issued, without revoking', async () => {
    const admin = await signUpBusiness(client);
    const claims = { accountId: admin.user.id, familyId: decode(part(admin.refreshToken, 1)).fam as string, generation: 0 };
    const lookalike = await issueRefreshToken(keys, claims, new Date(Date.now() - 2000));
    expect(lookalike).not.toBe(admin.refreshToken);
    expect((await refresh(lookalike)).status).toBe(401);
    expect((await refresh(admin.refreshToken)).status).toBe(200);
  });

  it('requires the refreshToken field', async () => {
    const reply = await client.request('POST', '/api/v1/auth/refresh-token', {});
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([expect.stringMatching(/^refreshToken: /)]);
  });
});

describe('Bearer tokens on a protected route', () => {
  it('accepts the access token of a login', async () => {
    const admin = await signUpBusiness(client);
    expect([200, 501]).toContain((await members(admin.accessToken)).status);
  });

  it('refuses alg none, a wrong key, a changed payload, an expired token and a refresh token with 401', async () => {
    const admin = await signUpBusiness(client);
    const header = decode(part(admin.accessToken, 0));
    const payload = decode(part(admin.accessToken, 1));
    const claims = { accountId: admin.user.id, email: admin.email };
    const candidates = {
      algNone: `${encode({ ...header, alg: 'none' })}.${part(admin.accessToken, 1)}.`,
      algNoneSigned: `${encode({ ...header, alg: 'none' })}.${part(admin.accessToken, 1)}.${part(admin.accessToken, 2)}`,
      wrongKey: await issueAccessToken(await forgedKeys(), claims, new Date()),
      otherSubject: [part(admin.accessToken, 0), encode({ ...payload, sub: 'someone-else' }), part(admin.accessToken, 2)].join('.'),
      expired: await issueAccessToken(keys, claims, new Date(Date.now() - 16 * MINUTE)),
      refreshToken: admin.refreshToken,
    };
    for (const [name, token] of Object.entries(candidates)) {
      const reply = await members(token);
      expect(reply.status, name).toBe(401);
      expect(reply.body.success, name).toBe(false);
    }
    expect((await members(await issueAccessToken(keys, claims, new Date(Date.now() - 14 * MINUTE)))).status).not.toBe(401);
  });
});
