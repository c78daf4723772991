import type { Table } from '#lib/store/table.ts';
import { accountKey } from '#lib/store/keys.ts';
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { deleteIf, putItem, updateIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';

/** What a one-time code is for; a code of one purpose never redeems the other. */
export const OTP_PURPOSES = ['VERIFY_EMAIL', 'RESET_PASSWORD'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];

export const OTP_TTL_MS = 10 * 60 * 1000;
/** Wrong tries that burn a code: a 6-digit code must not be guessable by brute force. */
export const OTP_MAX_ATTEMPTS = 5;
const GARBAGE_AFTER_SECONDS = 24 * 60 * 60;

/** One code per account and purpose, so issuing a new code replaces the earlier one. */
export const otpItemKey = (accountId: string, purpose: OtpPurpose) => ({
  pk: accountKey(accountId),
  sk: `OTP#${purpose}`,
});

export interface OtpRecord {
  accountId: string;
  purpose: OtpPurpose;
  salt: string;
  codeHash: string;
  attempts: number;
  expiresAt: string;
  createdAt: string;
}

export const otpToItem = (otp: OtpRecord): Record<string, unknown> => ({
  ...otpItemKey(otp.accountId, otp.purpose),
  type: 'OTP',
  ...otp,
  ttl: Math.floor(Date.parse(otp.expiresAt) / 1000) + GARBAGE_AFTER_SECONDS,
});

export const otpFromItem = (item: Record<string, unknown>): OtpRecord => {
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
        expiresAt: new Date(now.getTime() + OTP_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      }),
    );
    return code;
  };

  /**
   * Uses up the code if it is right, unexpired and not burnt; a wrong code counts a try. The delete is
   * conditional on the hash read, so of two concurrent redemptions only one succeeds.
   */
  const redeemOtp = async (purpose: OtpPurpose, code: string, now: Date): Promise<boolean> => {
    const key = otpItemKey(accountId, purpose);
    const Item = await getItem(table, key);
    if (!Item) return false;
    const otp = otpFromItem(Item);
    if (otp.attempts >= OTP_MAX_ATTEMPTS || otp.expiresAt <= now.toISOString()) return false;
    if (!sameHash(hashCode(otp.salt, code), otp.codeHash)) {
      await updateIf(table, key, {
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'codeHash = :seen AND attempts < :max',
        ExpressionAttributeValues: { ':one': 1, ':seen': otp.codeHash, ':max': OTP_MAX_ATTEMPTS },
      });
      return false;
    }
    const redeemed = await deleteIf(table, key, {
      ConditionExpression: 'codeHash = :seen AND attempts < :max AND expiresAt > :now',
      ExpressionAttributeValues: { ':seen': otp.codeHash, ':max': OTP_MAX_ATTEMPTS, ':now': now.toISOString() },
    });
    return redeemed !== undefined;
  };
  return { issueOtp, redeemOtp };
};
