import { UnauthorizedError } from '#lib/http/errors.ts';
import type { Runtime } from '#lib/runtime/runtime.ts';
import type { Account } from './account.ts';
import { getAccount } from './account-repository.ts';
import { hashRefreshToken, refreshTokenMatches } from './refresh-family-item.ts';
import { advanceFamily, getFamily, revokeFamily, startFamily } from './refresh-family-repository.ts';
import { REFRESH_TOKEN_TTL_SECONDS, issueAccessToken, issueRefreshToken, verifyRefreshToken } from './tokens.ts';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** The tokens both flat and under `tokens`: the spec's prose shows the first, its formal schema the second. */
export const tokenFields = (tokens: Tokens) => ({ ...tokens, tokens: { ...tokens } });

const refreshExpiry = (now: Date): string => new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString();

/** A new login: an access token and the first refresh token of a new family. */
export const startSession = async (runtime: Runtime, account: Account): Promise<Tokens> => {
  const { table, signingKeys, clock, ids } = runtime;
  const now = clock.now();
  const familyId = ids.sortable();
  const refreshToken = await issueRefreshToken(signingKeys, { accountId: account.id, familyId, generation: 0 }, now);
  await startFamily(table, {
    accountId: account.id,
    familyId,
    generation: 0,
    tokenHash: hashRefreshToken(refreshToken),
    expiresAt: refreshExpiry(now),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  const accessToken = await issueAccessToken(signingKeys, { accountId: account.id, email: account.email }, now);
  return { accessToken, refreshToken };
};

const reused = () =>
  new UnauthorizedError('Refresh token already used: this login was signed out, please log in again', [
    'refreshToken: replaced by a newer token',
  ]);

/**
 * Rotates a refresh token. An older generation than the family's, or losing the race to a concurrent
 * refresh, means the token was copied: the whole family is revoked, so the thief's newer token dies too.
 */
export const refreshSession = async (runtime: Runtime, presented: string): Promise<Tokens> => {
  const { table, signingKeys, clock } = runtime;
  const now = clock.now();
  const claims = await verifyRefreshToken(signingKeys, presented, now);
  const family = await getFamily(table, claims.accountId, claims.familyId);
  if (!family) throw new UnauthorizedError('Invalid refresh token');
  if (family.revokedAt) throw new UnauthorizedError('Refresh token revoked, please log in again');
  if (family.expiresAt <= now.toISOString()) throw new UnauthorizedError('Refresh token expired, please log in again');
  if (claims.generation < family.generation) {
    await revokeFamily(table, claims.accountId, claims.familyId, now.toISOString());
    throw reused();
  }
  if (claims.generation > family.generation || !refreshTokenMatches(presented, family.tokenHash)) {
    throw new UnauthorizedError('Invalid refresh token');
  }
  const account = await getAccount(table, claims.accountId);
  if (!account) throw new UnauthorizedError('Invalid refresh token');

  const refreshToken = await issueRefreshToken(
    signingKeys,
    { accountId: account.id, familyId: family.familyId, generation: family.generation + 1 },
    now,
  );
  const advanced = await advanceFamily(table, account.id, family.familyId, {
    fromGeneration: family.generation,
    tokenHash: hashRefreshToken(refreshToken),
    expiresAt: refreshExpiry(now),
    now: now.toISOString(),
  });
  if (!advanced) {
    await revokeFamily(table, account.id, family.familyId, now.toISOString());
    throw reused();
  }
  const accessToken = await issueAccessToken(signingKeys, { accountId: account.id, email: account.email }, now);
  return { accessToken, refreshToken };
};
