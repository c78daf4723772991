import type { AccountScope } from '#lib/identity/scope.ts';
import type { Account } from './account.ts';
import { findAccountByEmail } from './account-repository.ts';

/**
 * How long a registration that never proved its address holds it. Anyone may register any address, so an
 * unverified account must not keep the address's owner out for long: after this it is as if it did not
 * exist, and the next registration or invitation takes the address (docs/security.md, "Who holds an address").
 */
export const UNVERIFIED_LIFETIME_MS = 24 * 60 * 60 * 1000;

const hasLapsed = (account: Account, now: Date): boolean =>
  !account.isVerified && Date.parse(account.createdAt) + UNVERIFIED_LIFETIME_MS <= now.getTime();

/** The account that holds `email` now: a verified one, or an unverified one within its lifetime. */
export const findAddressHolder = async ({ ports }: AccountScope, email: string): Promise<Account | undefined> => {
  const account = await findAccountByEmail(ports.table, email);
  return account && !hasLapsed(account, ports.clock.now()) ? account : undefined;
};
