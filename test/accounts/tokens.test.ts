import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { refreshFamilyKey } from '#lib/accounts/refresh-family-repository.ts';
import { REFRESH_GRACE_SECONDS } from '#lib/accounts/sessions.ts';
import { issueAccessToken, issueRefreshToken } from '#lib/accounts/tokens.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { SigningKey } from '#lib/ports/signing-keys/signing-keys.ts';
import { startTestStack } from '../support/local-stack.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());

/** Runs `body` with the runtime's clock moved `offsetMs` ahead, then puts the real runtime back. */
const later = async (offsetMs: number, body: () => Promise<void>): Promise<void> => {
  const runtime = client.stack.ports;
  installPorts({ ...runtime, clock: { now: () => new Date(Date.now() + offsetMs) } });
  try {
    await body();
  } finally {
    installPorts(runtime);
  }
};

const keys = client.stack.ports.signingKeys;
const key = await keys.current();
const MINUTE = 60_000;

const refresh = (refreshToken: unknown) => client.request('POST', '/api/v1/auth/refresh-token', { refreshToken });
const members = (token: string) =>
  client.request('GET', '/api/v1/business/get_members', undefined, { authorization: `Bearer ${token}` });
const login = async (admin: SignedIn) =>
  (await client.request('POST', '/api/v1/auth/login', { email: admin.email, password: admin.password })).body.data as {
    accessToken: string;
    refreshToken: string;
  };

/** A key under the same key id as the real one, with another secret: a forger who knows the kid. */
const forgedKey: SigningKey = {
  kid: key.kid,
  secret: new TextEncoder().encode('not-the-signing-secret-not-the-signing-secret'),
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

  it('gives twenty parallel refreshes with one token the same new pair, and the login stays signed in', async () => {
    const admin = await signUpBusiness(client);
    const replies = await Promise.all(Array.from({ length: 20 }, () => refresh(admin.refreshToken)));
    expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(200));
    const pairs = new Set(replies.map((reply) => `${reply.body.data.accessToken} ${reply.body.data.refreshToken}`));
    expect(pairs.size).toBe(1);
    const { accessToken, refreshToken } = replies[0]!.body.data as { accessToken: string; refreshToken: string };
    expect((await members(accessToken)).status).toBe(200);
    expect((await refresh(refreshToken)).status).toBe(200);
  });

  it(`repeats a rotation for its retired token within ${REFRESH_GRACE_SECONDS} s, and revokes the login after`, async () => {
    const admin = await signUpBusiness(client);
    const first = (await refresh(admin.refreshToken)).body.data as { accessToken: string; refreshToken: string };
    await later(REFRESH_GRACE_SECONDS * 1000 - 1500, async () => {
      const again = await refresh(admin.refreshToken);
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject(first);
    });
    await later(REFRESH_GRACE_SECONDS * 1000 + 1500, async () => {
      const reused = await refresh(admin.refreshToken);
      expect(reused.status).toBe(401);
      expect(reused.body.message).toMatch(/already used/i);
      expect((await refresh(first.refreshToken)).status, 'the pair handed out is revoked with its login').toBe(401);
    });
  });

  it('keeps no usable token at rest: the login item holds hashes, a time and a key id', async () => {
    const admin = await signUpBusiness(client);
    const { refreshToken, accessToken } = (await refresh(admin.refreshToken)).body.data as {
      refreshToken: string;
      accessToken: string;
    };
    const { table } = client.stack.ports;
    const { Item } = await table.doc.send(
      new GetCommand({
        TableName: table.name,
        Key: refreshFamilyKey(admin.user.id, decode(part(refreshToken, 1)).fam as string),
      }),
    );
    expect(Item?.rotation).toEqual({
      retiredTokenHash: expect.any(String),
      issuedAt: expect.any(Number),
      kid: key.kid,
    });
    for (const token of [refreshToken, accessToken, admin.refreshToken]) {
      expect(JSON.stringify(Item)).not.toContain(part(token, 2));
    }
  });

  it('refuses an access token, a forged, tampered, expired or unknown-login token, and garbage, with 401', async () => {
    const admin = await signUpBusiness(client);
    const payload = decode(part(admin.refreshToken, 1));
    const [accountId, familyId, generation, sessionVersion] = [admin.user.id, payload.fam as string, 0, 0];
    const tampered = [part(admin.refreshToken, 0), encode({ ...payload, gen: 5 }), part(admin.refreshToken, 2)].join(
      '.',
    );
    const candidates = {
      access: admin.accessToken,
      forged: await issueRefreshToken(forgedKey, { accountId, familyId, generation, sessionVersion }, new Date()),
      tampered,
      expired: await issueRefreshToken(
        key,
        { accountId, familyId, generation, sessionVersion },
        new Date(Date.now() - 8 * 24 * 60 * MINUTE),
      ),
      unknownLogin: await issueRefreshToken(
        key,
        { accountId, familyId: '01UNKNOWNFAMILY00000000000', generation, sessionVersion },
        new Date(),
      ),
      garbage: 'not-a-token',
    };
    for (const [name, token] of Object.entries(candidates)) {
      expect((await refresh(token)).status, name).toBe(401);
    }
    expect((await refresh(admin.refreshToken)).status, 'none of that revoked the real login').toBe(200);
  });

  it('refuses a validly signed token of the current generation that is not the one issued, without revoking', async () => {
    const admin = await signUpBusiness(client);
    const claims = {
      accountId: admin.user.id,
      familyId: decode(part(admin.refreshToken, 1)).fam as string,
      generation: 0,
      sessionVersion: 0,
    };
    const lookalike = await issueRefreshToken(key, claims, new Date(Date.now() - 2000));
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
    expect((await members(admin.accessToken)).status).toBe(200);
  });

  it('refuses alg none, a wrong key, a changed payload, an expired token and a refresh token with 401', async () => {
    const admin = await signUpBusiness(client);
    const header = decode(part(admin.accessToken, 0));
    const payload = decode(part(admin.accessToken, 1));
    const claims = { accountId: admin.user.id, email: admin.email, sessionVersion: 0 };
    const candidates = {
      algNone: `${encode({ ...header, alg: 'none' })}.${part(admin.accessToken, 1)}.`,
      algNoneSigned: `${encode({ ...header, alg: 'none' })}.${part(admin.accessToken, 1)}.${part(admin.accessToken, 2)}`,
      wrongKey: await issueAccessToken(forgedKey, claims, new Date()),
      otherSubject: [
        part(admin.accessToken, 0),
        encode({ ...payload, sub: 'someone-else' }),
        part(admin.accessToken, 2),
      ].join('.'),
      expired: await issueAccessToken(key, claims, new Date(Date.now() - 16 * MINUTE)),
      refreshToken: admin.refreshToken,
    };
    for (const [name, token] of Object.entries(candidates)) {
      const reply = await members(token);
      expect(reply.status, name).toBe(401);
      expect(reply.body.success, name).toBe(false);
    }
    expect((await members(await issueAccessToken(key, claims, new Date(Date.now() - 14 * MINUTE)))).status).not.toBe(
      401,
    );
  });
});
