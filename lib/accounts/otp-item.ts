import { accountKey } from '#lib/store/keys.ts';

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
