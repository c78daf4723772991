import type { Table } from '#lib/store/table.ts';
import { accountKey } from '#lib/store/keys.ts';
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { deleteIf, putItem, updateIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';

/** What a one-time code is for; a code of one purpose never redeems the other. */
const OTP_PURPOSES = ['VERIFY_EMAIL', 'RESET_PASSWORD'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];

const OTP_TTL_MS = 10 * 60 * 1000;
/**
 * Wrong tries that burn a code for one requester (a client address, an IPv6 /64): a 6-digit code must not be
 * guessable by brute force, and a stranger who knows the address must not burn the code its owner was mailed.
 */
const OTP_MAX_ATTEMPTS = 5;
/**
 * Wrong tries from all requesters together that burn the code for everyone: the bound on guessing from many
 * addresses at once (100 in a million), which also bounds the item's size.
 */
const OTP_MAX_TOTAL_ATTEMPTS = 100;
const GARBAGE_AFTER_SECONDS = 24 * 60 * 60;

/** One code per account and purpose, so issuing a new code replaces the earlier one. */
const otpItemKey = (accountId: string, purpose: OtpPurpose) => ({
  pk: accountKey(accountId),
  sk: `OTP#${purpose}`,
});

export interface OtpRecord {
  accountId: string;
  purpose: OtpPurpose;
  salt: string;
  codeHash: string;
  /** Wrong tries of all requesters. */
  attempts: number;
  /** Wrong tries per requester; codes issued before it existed have none and are refused (they lived 10 minutes). */
  attemptsBy?: Record<string, number>;
  expiresAt: string;
  createdAt: string;
}

const otpToItem = (otp: OtpRecord): Record<string, unknown> => ({
  ...otpItemKey(otp.accountId, otp.purpose),
  type: 'OTP',
  ...otp,
  ttl: Math.floor(Date.parse(otp.expiresAt) / 1000) + GARBAGE_AFTER_SECONDS,
});

const otpFromItem = (item: Record<string, unknown>): OtpRecord => {
  const { pk: _pk, sk: _sk, type: _type, ttl: _ttl, ...otp } = item;
  return otp as unknown as OtpRecord;
};

/**
 * Salted SHA-256: the code has only a million values, so the salt keeps a leaked table from being a
 * lookup; what actually stops guessing is the 5 tries and 10 minutes every read enforces.
 */
const hashCode = (salt: string, code: string): string => createHash('sha256').update(`${salt}:${code}`).digest('hex');

const sameHash = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
};

/** The operations of this module bound to one account. */
export const otpRepository = (table: Table, accountId: string) => {
  /** Stores a fresh 6-digit code, replacing any earlier one of the purpose, and returns it for the e-mail. */
  const issueOtp = async (purpose: OtpPurpose, now: Date): Promise<string> => {
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    const salt = randomBytes(16).toString('base64url');
    await putItem(
      table,
      otpToItem({
        accountId,
        purpose,
        salt,
        codeHash: hashCode(salt, code),
        attempts: 0,
        attemptsBy: {},
        expiresAt: new Date(now.getTime() + OTP_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      }),
    );
    return code;
  };

  /**
   * Uses up the code if it is right, unexpired and not burnt for this requester or for everyone; a wrong code
   * counts a try of the requester. The delete is conditional on the hash read, so of two concurrent
   * redemptions only one succeeds.
   */
  const redeemOtp = async (purpose: OtpPurpose, code: string, now: Date, requester: string): Promise<boolean> => {
    const key = otpItemKey(accountId, purpose);
    const Item = await getItem(table, key);
    if (!Item) return false;
    const otp = otpFromItem(Item);
    if (!otp.attemptsBy || otp.expiresAt <= now.toISOString()) return false;
    const mine = Object.hasOwn(otp.attemptsBy, requester) ? (otp.attemptsBy[requester] as number) : 0;
    if (otp.attempts >= OTP_MAX_TOTAL_ATTEMPTS || mine >= OTP_MAX_ATTEMPTS) return false;
    if (!sameHash(hashCode(otp.salt, code), otp.codeHash)) {
      await updateIf(table, key, {
        UpdateExpression:
          'ADD attempts :one SET attemptsBy.#requester = if_not_exists(attemptsBy.#requester, :zero) + :one',
        ConditionExpression:
          'codeHash = :seen AND attempts < :total AND (attribute_not_exists(attemptsBy.#requester) OR attemptsBy.#requester < :max)',
        ExpressionAttributeNames: { '#requester': requester },
        ExpressionAttributeValues: {
          ':one': 1,
          ':zero': 0,
          ':seen': otp.codeHash,
          ':total': OTP_MAX_TOTAL_ATTEMPTS,
          ':max': OTP_MAX_ATTEMPTS,
        },
      });
      return false;
    }
    const redeemed = await deleteIf(table, key, {
      ConditionExpression:
        'codeHash = :seen AND attempts < :total AND expiresAt > :now AND (attribute_not_exists(attemptsBy.#requester) OR attemptsBy.#requester < :max)',
      ExpressionAttributeNames: { '#requester': requester },
      ExpressionAttributeValues: {
        ':seen': otp.codeHash,
        ':total': OTP_MAX_TOTAL_ATTEMPTS,
        ':max': OTP_MAX_ATTEMPTS,
        ':now': now.toISOString(),
      },
    });
    return redeemed !== undefined;
  };
  return { issueOtp, redeemOtp };
};
