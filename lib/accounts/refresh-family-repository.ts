import type { Table } from '#lib/store/table.ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { accountKey } from '#lib/store/keys.ts';
import { putNew, updateIf, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';

const SORT_PREFIX = 'REFRESH#';
const GARBAGE_AFTER_SECONDS = 24 * 60 * 60;

/**
 * One login: the chain of refresh tokens that rotation derives from it. Only the newest generation is
 * valid; presenting an older one means the chain leaked, and the whole family is revoked, except the
 * generation just rotated away within the grace window (docs/security.md, Tokens).
 */
export interface RefreshFamily {
  accountId: string;
  familyId: string;
  generation: number;
  /** SHA-256 of the newest refresh token, so only the very token issued last rotates the family. */
  tokenHash: string;
  /**
   * The last rotation, for repeating it within the grace window: the hash of the token it retired, and
   * the second and signing key id it issued the pair at. No token is kept: the pair is signed again,
   * identically, from these and the signing key, which never leaves the key store.
   */
  rotation?: { retiredTokenHash: string; issuedAt: number; kid: string };
  expiresAt: string;
  revokedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const refreshFamilyKey = (accountId: string, familyId: string) => ({
  pk: accountKey(accountId),
  sk: `${SORT_PREFIX}${familyId}`,
});

/** DynamoDB may delete the item a day after it expired; code compares `expiresAt` itself. */
const refreshFamilyTtl = (expiresAt: string): number =>
  Math.floor(Date.parse(expiresAt) / 1000) + GARBAGE_AFTER_SECONDS;

const refreshFamilyToItem = (family: RefreshFamily): Record<string, unknown> => ({
  ...refreshFamilyKey(family.accountId, family.familyId),
  type: 'REFRESH_FAMILY',
  ...family,
  ttl: refreshFamilyTtl(family.expiresAt),
});

const refreshFamilyFromItem = (item: Record<string, unknown>): RefreshFamily => {
  const { pk: _pk, sk: _sk, type: _type, ttl: _ttl, ...family } = item;
  return family as unknown as RefreshFamily;
};

export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const refreshTokenMatches = (token: string, storedHash: string): boolean => {
  const actual = Buffer.from(hashRefreshToken(token), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

export const startFamily = async (table: Table, family: RefreshFamily): Promise<void> => {
  await putNew(table, refreshFamilyToItem(family));
};

export interface Advance {
  fromGeneration: number;
  tokenHash: string;
  rotation: NonNullable<RefreshFamily['rotation']>;
  expiresAt: string;
  now: string;
}

/** The operations of this module bound to one account. */
export const refreshFamilyRepository = (table: Table, accountId: string) => {
  const getFamily = (familyId: string): Promise<RefreshFamily | undefined> =>
    findItem(table, refreshFamilyKey(accountId, familyId), (item) => refreshFamilyFromItem(item));

  /**
   * Moves the family to the next generation if it is still at `fromGeneration` and not revoked. False
   * means another refresh got there first.
   */
  const advanceFamily = async (familyId: string, next: Advance): Promise<boolean> => {
    const advanced = await updateIf(table, refreshFamilyKey(accountId, familyId), {
      UpdateExpression:
        'SET generation = :next, tokenHash = :hash, rotation = :rotation, expiresAt = :expiresAt, #ttl = :ttl, updatedAt = :now',
      ConditionExpression: 'generation = :from AND attribute_not_exists(revokedAt)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':from': next.fromGeneration,
        ':next': next.fromGeneration + 1,
        ':hash': next.tokenHash,
        ':rotation': next.rotation,
        ':expiresAt': next.expiresAt,
        ':ttl': refreshFamilyTtl(next.expiresAt),
        ':now': next.now,
      },
    });
    return advanced !== undefined;
  };

  /** Keeps the first revocation time when revoked twice. */
  const revokeFamily = async (familyId: string, now: string): Promise<void> => {
    await updateIfPresent(table, refreshFamilyKey(accountId, familyId), {
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now), updatedAt = :now',
      ExpressionAttributeValues: { ':now': now },
    });
  };
  return { getFamily, advanceFamily, revokeFamily };
};
