import { findAddressHolder } from './address-holder.ts';
import { otpRepository } from './otp-repository.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { sendOrAskAgain } from '#lib/ports/mail/send-or-ask-again.ts';

/**
 * E-mails a reset code to an existing account, with a link to the console's reset page; the caller answers the
 * same for unknown addresses.
 */
export const sendPasswordResetCode = async (scope: AccountScope, email: string): Promise<void> => {
  const { ports } = scope;
  const account = await findAddressHolder(scope, email);
  if (!account) return;
  const otp = await otpRepository(ports.table, account.id).issueOtp('RESET_PASSWORD', ports.clock.now());
  await sendOrAskAgain(ports.mail, {
    to: account.email,
    subject: 'Your password reset code',
    text: [
      `Your password reset code is ${otp}. It expires in 10 minutes. If you did not ask for it, ignore this e-mail.`,
      `Set a new password: ${ports.mail.appUrl}/reset-password?email=${encodeURIComponent(account.email)}`,
    ].join('\n\n'),
    otp,
  });
};
