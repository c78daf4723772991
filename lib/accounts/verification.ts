import { BadRequestError } from '#lib/contract/errors.ts';
import type { Account } from './account.ts';
import { findAccountByEmail, accountRepository } from './account-repository.ts';
import { otpRepository } from './otp-repository.ts';
import type { VerifyEmailInput } from './schemas.ts';
import type { AccountScope } from '#lib/identity/scope.ts';

/**
 * The one answer to every failed code: wrong, expired, burnt, or an address without an account, so the
 * answer does not tell which addresses have accounts.
 */
export const invalidCode = () =>
  new BadRequestError('Invalid or expired code', ['otp: the code is wrong or has expired; request a new one']);

export const sendVerificationCode = async ({ ports }: AccountScope, account: Account): Promise<void> => {
  const otp = await otpRepository(ports.table, account.id).issueOtp('VERIFY_EMAIL', ports.clock.now());
  await ports.mail.send({
    to: account.email,
    subject: 'Your verification code',
    text: `Your verification code is ${otp}. It expires in 10 minutes.`,
    otp,
  });
};

export interface Verification {
  email: string;
  isVerified: true;
  alreadyVerified: boolean;
}

export const verifyEmail = async ({ ports }: AccountScope, { email, otp }: VerifyEmailInput): Promise<Verification> => {
  const { table, clock } = ports;
  const account = await findAccountByEmail(table, email);
  if (!account) throw invalidCode();
  if (account.isVerified) return { email: account.email, isVerified: true, alreadyVerified: true };
  const now = clock.now();
  if (!(await otpRepository(table, account.id).redeemOtp('VERIFY_EMAIL', otp, now))) throw invalidCode();
  await accountRepository(table, account.id).updateAccount({ isVerified: true }, now.toISOString());
  return { email: account.email, isVerified: true, alreadyVerified: false };
};

/** Sends a new code only to an existing, unverified account; the caller answers the same either way. */
export const resendVerificationCode = async (scope: AccountScope, email: string): Promise<void> => {
  const { ports } = scope;
  const account = await findAccountByEmail(ports.table, email);
  if (account && !account.isVerified) await sendVerificationCode(scope, account);
};
