import { accountKey } from '#lib/store/keys.ts';
import { emailKey, type Account } from './account.ts';

/** The account's profile item: everything about the person, found by account id. */
export const accountProfileKey = (accountId: string) => ({ pk: accountKey(accountId), sk: 'PROFILE' });

/** Claims an e-mail address for one account; the conditional put of this item is what makes addresses unique. */
export const emailClaimKey = (email: string) => ({ pk: accountKey('EMAIL', emailKey(email)), sk: 'EMAIL' });

/** Claims a provider's user id for one account, so an OAuth login needs the pairing, not just the address. */
export const oauthClaimKey = (provider: string, providerUuid: string) => ({
  pk: accountKey('OAUTH', encodeURIComponent(provider.trim().toLowerCase()), encodeURIComponent(providerUuid)),
  sk: 'OAUTH',
});

export const accountToItem = (account: Account): Record<string, unknown> => ({
  ...accountProfileKey(account.id),
  type: 'ACCOUNT',
  ...account,
});

export const accountFromItem = (item: Record<string, unknown>): Account => {
  const { pk: _pk, sk: _sk, type: _type, ...account } = item;
  return account as unknown as Account;
};
