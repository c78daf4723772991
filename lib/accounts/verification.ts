import { BadRequestError } from '#lib/contract/errors.ts';
import type { Account } from './account.ts';
import { findAddressHolder } from './address-holder.ts';
import { otpRepository } from './otp-repository.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { sendOrAskAgain } from '#lib/ports/mail/send-or-ask-again.ts';

/**
 * The one answer to every failed code: wrong, expired, burnt, or an address without an account, so the
 * answer does not tell which addresses have accounts.
 */
export const invalidCode = () =>
  new BadRequestError('Invalid or expired code', ['otp: the code is wrong or has expired; request a new one']);

export const sendVerificationCode = async ({ ports }: AccountScope, account: Account): Promise<void> => {
  const otp = await otpRepository(ports.table, account.id).issueOtp('VERIFY_EMAIL', ports.clock.now());
  await sendOrAskAgain(ports.mail, {
    to: account.email,
    subject: 'Your verification code',
    text:
      `Your verification code is ${otp}. It expires in 10 minutes.\n\n` +
      "If you did not register this address, don't verify someone else's registration with it: register the address " +
      'yourself, or verify it with a new password of your own (newPassword), which ends the other registration.',
    otp,
  });
};

/** Sends a new code only to an existing, unverified account; the caller answers the same either way. */
export const resendVerificationCode = async (scope: AccountScope, email: string): Promise<void> => {
  const account = await findAddressHolder(scope, email);
  if (account && !account.isVerified) await sendVerificationCode(scope, account);
};
