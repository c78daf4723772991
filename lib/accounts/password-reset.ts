import { findAccountByEmail, accountRepository } from './account-repository.ts';
import { otpRepository } from './otp-repository.ts';
import { hashPassword } from './passwords.ts';
import type { ResetPasswordInput } from './schemas.ts';
import { invalidCode } from './verification.ts';
import type { AccountScope } from '#lib/identity/scope.ts';

/** E-mails a reset code to an existing account; the caller answers the same for unknown addresses. */
export const sendPasswordResetCode = async ({ ports }: AccountScope, email: string): Promise<void> => {
  const account = await findAccountByEmail(ports.table, email);
  if (!account) return;
  const otp = await otpRepository(ports.table, account.id).issueOtp('RESET_PASSWORD', ports.clock.now());
  await ports.mail.send({
    to: account.email,
    subject: 'Your password reset code',
    text: `Your password reset code is ${otp}. It expires in 10 minutes. If you did not ask for it, ignore this e-mail.`,
    otp,
  });
};

/**
 * Sets the new password and signs the account out everywhere: the same write raises the session
 * version, so every access and refresh token issued before fails on its next use. The code arrived by
 * e-mail, so it also proves the address: an unverified account comes out verified. The hash is computed
 * first, for every address, so an unknown one is neither faster nor half-written.
 */
export const resetPassword = async (
  { ports }: AccountScope,
  { email, otp, newPassword }: ResetPasswordInput,
): Promise<void> => {
  const { table, clock } = ports;
  const passwordHash = await hashPassword(newPassword);
  const account = await findAccountByEmail(table, email);
  if (!account) throw invalidCode();
  const now = clock.now();
  if (!(await otpRepository(table, account.id).redeemOtp('RESET_PASSWORD', otp, now))) throw invalidCode();
  await accountRepository(table, account.id).replaceCredentials({ passwordHash }, now.toISOString());
};
