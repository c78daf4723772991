import { findAddressHolder } from '#lib/accounts/address-holder.ts';
import { accountRepository } from '#lib/accounts/account-repository.ts';
import { accountSecurityRepository } from '#lib/accounts/account-security-repository.ts';
import type { Account } from '#lib/accounts/account.ts';
import { otpRepository } from '#lib/accounts/otp-repository.ts';
import { hashPassword, verifyPassword } from '#lib/accounts/passwords.ts';
import type { ResetPasswordInput, VerifyEmailInput } from '#lib/accounts/schemas.ts';
import { invalidCode } from '#lib/accounts/verification.ts';
import { BadRequestError } from '#lib/contract/errors.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { discardSetupOf } from './unproven-registrations.ts';

/**
 * The two ways a mailed code proves an address: verifying it, and resetting its password. Both live beside
 * the workspaces because proving an address someone else registered discards the workspace they opened.
 */

/** Who presents a code: wrong tries are counted per requester, so a stranger's guesses burn only their own. */
export interface CodeRequester {
  /** The client's address as the rate limiter counts it (an IPv6 /64 as one). */
  requester: string;
}

export interface Verification {
  email: string;
  isVerified: true;
  alreadyVerified: boolean;
}

const notTheRegisteredPassword = () =>
  new BadRequestError('Not the password this address was registered with', [
    'password: not the password chosen at registration; to choose a new one, give newPassword instead',
  ]);

/**
 * The mailbox's owner takes over an address whose registrant never proved it: the new password, verified,
 * the session version raised (every earlier session and refresh family ends) and the registrant's workspace
 * discarded.
 */
export const takeOverAddress = async (
  scope: AccountScope,
  holder: Account,
  credentials: { passwordHash: string; firstName?: string | undefined; lastName?: string | undefined },
  now: string,
): Promise<Account> => {
  const owned = await accountSecurityRepository(scope.ports.table, holder.id).takeOverUnverified(credentials, now);
  await discardSetupOf(scope, holder);
  return owned;
};

/**
 * Verifies an address with the mailed code. The code alone (the spec's body) or with the registrant's own
 * `password` keeps the account as it is; `newPassword` takes it over. With a wrong password nothing is used
 * up: the code stays valid for the right request.
 */
export const verifyEmail = async (
  scope: AccountScope,
  { email, otp, password, newPassword, requester }: VerifyEmailInput & CodeRequester,
): Promise<Verification> => {
  const { table, clock } = scope.ports;
  const account = await findAddressHolder(scope, email);
  if (!account) throw invalidCode();
  if (account.isVerified) return { email: account.email, isVerified: true, alreadyVerified: true };
  if (password !== undefined && !(account.passwordHash && (await verifyPassword(password, account.passwordHash)))) {
    throw notTheRegisteredPassword();
  }
  const passwordHash = newPassword === undefined ? undefined : await hashPassword(newPassword);
  const now = clock.now();
  if (!(await otpRepository(table, account.id).redeemOtp('VERIFY_EMAIL', otp, now, requester))) throw invalidCode();
  if (passwordHash === undefined) {
    await accountRepository(table, account.id).updateAccount({ isVerified: true }, now.toISOString());
  } else {
    await takeOverAddress(scope, account, { passwordHash }, now.toISOString());
  }
  return { email: account.email, isVerified: true, alreadyVerified: false };
};

/**
 * Sets the new password and signs the account out everywhere: the same write raises the session
 * version, so every access and refresh token issued before fails on its next use. The code arrived by
 * e-mail, so it also proves the address: an unverified account is taken over as verifying with a new
 * password would. The hash is computed first, for every address, so an unknown one is neither faster
 * nor half-written.
 */
export const resetPassword = async (
  scope: AccountScope,
  { email, otp, newPassword, requester }: ResetPasswordInput & CodeRequester,
): Promise<void> => {
  const { table, clock } = scope.ports;
  const passwordHash = await hashPassword(newPassword);
  const account = await findAddressHolder(scope, email);
  if (!account) throw invalidCode();
  const now = clock.now();
  if (!(await otpRepository(table, account.id).redeemOtp('RESET_PASSWORD', otp, now, requester))) throw invalidCode();
  if (account.isVerified) {
    await accountRepository(table, account.id).replaceCredentials({ passwordHash }, now.toISOString());
  } else {
    await takeOverAddress(scope, account, { passwordHash }, now.toISOString());
  }
};
