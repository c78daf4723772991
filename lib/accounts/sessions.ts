import { UnauthorizedError } from '#lib/contract/errors.ts';
import type { SigningKey } from '#lib/ports/signing-keys/signing-keys.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { sessionVersionOf, type Account } from './account.ts';
import { accountRepository } from './account-repository.ts';
import { accountSecurityRepository } from './account-security-repository.ts';
import { hashRefreshToken, refreshTokenMatches, type RefreshFamily } from './refresh-family-repository.ts';
import { startFamily, refreshFamilyRepository } from './refresh-family-repository.ts';
import {
  REFRESH_TOKEN_TTL_SECONDS,
  issueAccessToken,
  issueRefreshToken,
  verifyRefreshToken,
  type RefreshClaims,
} from './tokens.ts';
import type { AccountScope } from '#lib/identity/scope.ts';

/**
 * How long after a rotation the token it retired may be presented again and receive the same new pair
 * instead of signing the login out: parallel requests of one client that all found the access token
 * expired (OAuth 2.0 Security BCP, refresh token rotation). Later reuse still revokes the login.
 */
export const REFRESH_GRACE_SECONDS = 10;

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** The tokens both flat and under `tokens`: the spec's prose shows the first, its formal schema the second. */
export const tokenFields = (tokens: Tokens) => ({ ...tokens, tokens: { ...tokens } });

const refreshExpiry = (now: Date): string => new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString();

/** The pair of one generation of a login, signed with `key` at `at`: the same inputs sign the same pair. */
const signPair = async (
  key: SigningKey,
  account: Account,
  familyId: string,
  generation: number,
  at: Date,
): Promise<Tokens> => {
  const sessionVersion = sessionVersionOf(account);
  return {
    accessToken: await issueAccessToken(
      key,
      { accountId: account.id, email: account.email, sessionVersion, familyId },
      at,
    ),
    refreshToken: await issueRefreshToken(key, { accountId: account.id, familyId, generation, sessionVersion }, at),
  };
};

/** A new login: an access token and the first refresh token of a new family. */
export const startSession = async ({ ports }: AccountScope, account: Account): Promise<Tokens> => {
  const { table, signingKeys, clock, ids } = ports;
  const now = clock.now();
  const familyId = ids.sortable();
  const tokens = await signPair(await signingKeys.current(), account, familyId, 0, now);
  await startFamily(table, {
    accountId: account.id,
    familyId,
    generation: 0,
    tokenHash: hashRefreshToken(tokens.refreshToken),
    expiresAt: refreshExpiry(now),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  return tokens;
};

const reused = () =>
  new UnauthorizedError('Refresh token already used: this login was signed out, please log in again', [
    'refreshToken: replaced by a newer token',
  ]);

/** The next generation, or undefined when a concurrent refresh rotated the family first. */
const rotate = async (
  { table, signingKeys }: Ports,
  account: Account,
  family: RefreshFamily,
  presented: string,
  now: Date,
) => {
  const key = await signingKeys.current();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const tokens = await signPair(key, account, family.familyId, family.generation + 1, new Date(issuedAt * 1000));
  const advanced = await refreshFamilyRepository(table, account.id).advanceFamily(family.familyId, {
    fromGeneration: family.generation,
    tokenHash: hashRefreshToken(tokens.refreshToken),
    rotation: { retiredTokenHash: hashRefreshToken(presented), issuedAt, kid: key.kid },
    expiresAt: refreshExpiry(new Date(issuedAt * 1000)),
    now: now.toISOString(),
  });
  return advanced ? tokens : undefined;
};

/**
 * A token the family has moved past. The one the last rotation retired, within the grace window, gets
 * that rotation's pair again, signed anew from what the family recorded; anything else is reuse of a
 * copied token, and the whole login is revoked so the thief's newer token dies too.
 */
const repeatRotation = async (
  ports: Ports,
  account: Account,
  presented: string,
  claims: RefreshClaims,
  family: RefreshFamily | undefined,
  now: Date,
): Promise<Tokens> => {
  const { table, signingKeys } = ports;
  if (family?.revokedAt) throw new UnauthorizedError('Refresh token revoked, please log in again');
  const rotation = family?.rotation;
  const repeatable =
    family !== undefined &&
    rotation !== undefined &&
    family.generation === claims.generation + 1 &&
    refreshTokenMatches(presented, rotation.retiredTokenHash) &&
    now.getTime() / 1000 - rotation.issuedAt <= REFRESH_GRACE_SECONDS;
  const key = repeatable ? await signingKeys.find(rotation.kid) : undefined;
  if (family && rotation && key) {
    const tokens = await signPair(key, account, family.familyId, family.generation, new Date(rotation.issuedAt * 1000));
    if (refreshTokenMatches(tokens.refreshToken, family.tokenHash)) return tokens;
  }
  await refreshFamilyRepository(table, claims.accountId).revokeFamily(claims.familyId, now.toISOString());
  await accountSecurityRepository(table, claims.accountId).recordRevokedLogin(claims.familyId, now);
  throw reused();
};

/**
 * Rotates a refresh token. Its family and account are read together; a token issued before the account's
 * last credential change (a password reset) is refused, whatever its generation.
 */
export const refreshSession = async ({ ports }: AccountScope, presented: string): Promise<Tokens> => {
  const { table, signingKeys, clock } = ports;
  const now = clock.now();
  const claims = await verifyRefreshToken(signingKeys, presented, now);
  const families = refreshFamilyRepository(table, claims.accountId);
  const [family, account] = await Promise.all([
    families.getFamily(claims.familyId),
    accountRepository(table, claims.accountId).getAccount(),
  ]);
  if (!family || !account) throw new UnauthorizedError('Invalid refresh token');
  if (family.revokedAt) throw new UnauthorizedError('Refresh token revoked, please log in again');
  if (family.expiresAt <= now.toISOString()) throw new UnauthorizedError('Refresh token expired, please log in again');
  if (claims.sessionVersion !== sessionVersionOf(account)) {
    throw new UnauthorizedError('Signed out: the account credentials changed, please log in again');
  }
  if (claims.generation > family.generation) throw new UnauthorizedError('Invalid refresh token');
  if (claims.generation < family.generation) return repeatRotation(ports, account, presented, claims, family, now);
  if (!refreshTokenMatches(presented, family.tokenHash)) throw new UnauthorizedError('Invalid refresh token');
  const tokens = await rotate(ports, account, family, presented, now);
  if (tokens) return tokens;
  const rotated = await families.getFamily(claims.familyId);
  return repeatRotation(ports, account, presented, claims, rotated, now);
};

/**
 * Ends the login the refresh token belongs to: its family is revoked, so no token of it refreshes again, and
 * the login is recorded on the account as revoked, so the access tokens of the family answer 401 on their next
 * request (docs/security.md, "Sign out"). A token already revoked or expired signs out nothing more: 200.
 */
export const endSession = async ({ ports }: AccountScope, presented: string): Promise<void> => {
  const { table, signingKeys, clock } = ports;
  const now = clock.now();
  const claims = await verifyRefreshToken(signingKeys, presented, now);
  await refreshFamilyRepository(table, claims.accountId).revokeFamily(claims.familyId, now.toISOString());
  await accountSecurityRepository(table, claims.accountId).recordRevokedLogin(claims.familyId, now);
};
