import type { Role } from '#lib/identity/caller.ts';
import type { Table } from '#lib/store/table.ts';
import { emailKey, type Account } from './account.ts';
import { accountKey } from '#lib/store/keys.ts';
import { setFields } from '#lib/store/set-fields.ts';
import {
  deleteIf,
  putIf,
  putIfAbsent,
  putItem,
  putNew,
  updateIf,
  updateIfPresent,
} from '#lib/store/conditional-writes.ts';
import { findItem, getItem } from '#lib/store/items.ts';

/** The account's profile item: everything about the person, found by account id. */
export const accountProfileKey = (accountId: string) => ({ pk: accountKey(accountId), sk: 'PROFILE' });

/** Claims an e-mail address for one account; the conditional put of this item is what makes addresses unique. */
const emailClaimKey = (email: string) => ({ pk: accountKey('EMAIL', emailKey(email)), sk: 'EMAIL' });

/** Claims a provider's user id for one account, so an OAuth login needs the pairing, not just the address. */
export const oauthClaimKey = (provider: string, providerUuid: string) => ({
  pk: accountKey('OAUTH', encodeURIComponent(provider.trim().toLowerCase()), encodeURIComponent(providerUuid)),
  sk: 'OAUTH',
});

const accountToItem = (account: Account): Record<string, unknown> => ({
  ...accountProfileKey(account.id),
  type: 'ACCOUNT',
  ...account,
});

export const accountFromItem = (item: Record<string, unknown>): Account => {
  const { pk: _pk, sk: _sk, type: _type, ...account } = item;
  return account as unknown as Account;
};

export class EmailTakenError extends Error {}
export class OAuthIdentityTakenError extends Error {}
export class AlreadyInWorkspaceError extends Error {}

export const findAccountByEmail = async (table: Table, email: string): Promise<Account | undefined> => {
  const Item = await getItem(table, emailClaimKey(email));
  return Item ? accountRepository(table, Item.accountId as string).getAccount() : undefined;
};

export const findAccountByOAuth = async (table: Table, provider: string, providerUuid: string) => {
  const Item = await getItem(table, oauthClaimKey(provider, providerUuid));
  return Item ? accountRepository(table, Item.accountId as string).getAccount() : undefined;
};

/** A registration that lost the race for its OAuth identity gives its address back, unless another took it over. */
const releaseEmailClaim = async (table: Table, claim: ReturnType<typeof emailClaimKey>, accountId: string) => {
  await deleteIf(table, claim, {
    ConditionExpression: 'accountId = :account',
    ExpressionAttributeValues: { ':account': accountId },
  });
};

/**
 * Claims the address (and the OAuth identity, if any), then writes the profile. A claim held by an
 * unverified account is taken over: registering proves nothing about the address, so it keeps nobody out
 * (docs/security.md, "Who holds an address"). The displaced account is answered so that the caller can
 * discard what it set up. A claim left without a profile by a crash between the writes is taken over too.
 */
export const createAccount = async (table: Table, account: Account): Promise<Account | undefined> => {
  const claim = emailClaimKey(account.email);
  const emailClaim = { ...claim, type: 'EMAIL_CLAIM', accountId: account.id };
  let displaced: Account | undefined;
  if (!(await putIfAbsent(table, emailClaim))) {
    const held = await getItem(table, claim);
    const holderId = held?.accountId as string | undefined;
    const holder = holderId === undefined ? undefined : await accountRepository(table, holderId).getAccount();
    if (holder?.isVerified) throw new EmailTakenError(account.email);
    // Conditional on the holder read, so of two registrations racing for the address one wins.
    const moved = holderId
      ? await putIf(table, emailClaim, {
          ConditionExpression: 'accountId = :seen',
          ExpressionAttributeValues: { ':seen': holderId },
        })
      : await putIfAbsent(table, emailClaim);
    if (!moved) throw new EmailTakenError(account.email);
    displaced = holder;
  }
  if (account.oauth) {
    const { provider, providerUuid } = account.oauth;
    const oauthClaim = { ...oauthClaimKey(provider, providerUuid), type: 'OAUTH_CLAIM', accountId: account.id };
    if (!(await putIfAbsent(table, oauthClaim))) {
      if (await findAccountByOAuth(table, provider, providerUuid)) {
        await releaseEmailClaim(table, claim, account.id);
        throw new OAuthIdentityTakenError(providerUuid);
      }
      await putItem(table, oauthClaim);
    }
  }
  await putNew(table, accountToItem(account));
  return displaced;
};

export interface NewCredentials {
  passwordHash: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** Raised when the account to change is gone, or (`takeOverUnverified`) was verified meanwhile. */
export class AccountChangedError extends Error {}

/** The operations of this module bound to one account. */
export const accountRepository = (table: Table, accountId: string) => {
  const getAccount = async (): Promise<Account | undefined> => {
    return findItem(table, accountProfileKey(accountId), (item) => accountFromItem(item));
  };

  /** Points the account at its workspace; only an account without one may join, so a race has one winner. */
  const joinWorkspace = async (workspaceId: string, roles: Role[], now: string): Promise<Account> => {
    const joined = await updateIfPresent(table, accountProfileKey(accountId), {
      UpdateExpression: 'SET businessId = :workspace, #roles = :roles, updatedAt = :now',
      ConditionExpression: 'attribute_not_exists(businessId) OR businessId = :none',
      ExpressionAttributeNames: { '#roles': 'roles' },
      ExpressionAttributeValues: { ':workspace': workspaceId, ':roles': roles, ':now': now, ':none': null },
    });
    if (!joined) throw new AlreadyInWorkspaceError(accountId);
    return accountFromItem(joined);
  };

  /** Sets plain profile fields (verification, names); a password changes only through `replaceCredentials`. */
  const updateAccount = async (
    fields: Partial<Pick<Account, 'isVerified' | 'firstName' | 'lastName'>>,
    now: string,
  ): Promise<Account> => {
    const updated = await updateIfPresent(
      table,
      accountProfileKey(accountId),
      setFields({ ...fields, updatedAt: now }),
    );
    if (!updated) throw new Error(`account ${accountId} does not exist`);
    return accountFromItem(updated);
  };

  /**
   * Sets the password, marks the address verified (whoever changes credentials proved the mailbox) and
   * raises the session version in the same write, so every token issued before dies with the old password.
   */
  const replaceCredentials = async (credentials: NewCredentials, now: string): Promise<Account> => {
    const set = setFields({ ...credentials, isVerified: true, updatedAt: now });
    const replaced = await updateIfPresent(table, accountProfileKey(accountId), {
      UpdateExpression: `${set.UpdateExpression} ADD sessionVersion :one`,
      ExpressionAttributeNames: set.ExpressionAttributeNames,
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':one': 1 },
    });
    if (!replaced) throw new AccountChangedError(accountId);
    return accountFromItem(replaced);
  };

  /**
   * Sets the account's role in `workspaceId`; undefined when the account is not in that workspace (any
   * more), so a removal racing a role change never puts the removed account back.
   */
  const setWorkspaceRole = async (workspaceId: string, role: Role, now: string): Promise<Account | undefined> => {
    const updated = await updateIf(table, accountProfileKey(accountId), {
      UpdateExpression: 'SET #roles = :roles, updatedAt = :now',
      ConditionExpression: 'businessId = :workspace',
      ExpressionAttributeNames: { '#roles': 'roles' },
      ExpressionAttributeValues: { ':roles': [role], ':workspace': workspaceId, ':now': now },
    });
    return updated && accountFromItem(updated);
  };

  /** Makes the account workspace-less again if it is in `workspaceId`; false when it is not. */
  const leaveWorkspace = async (workspaceId: string, now: string): Promise<boolean> => {
    const left = await updateIf(table, accountProfileKey(accountId), {
      UpdateExpression: 'SET businessId = :none, #roles = :roles, updatedAt = :now',
      ConditionExpression: 'businessId = :workspace',
      ExpressionAttributeNames: { '#roles': 'roles' },
      ExpressionAttributeValues: { ':none': null, ':roles': [], ':workspace': workspaceId, ':now': now },
    });
    return left !== undefined;
  };
  return {
    getAccount,
    joinWorkspace,
    updateAccount,
    replaceCredentials,
    setWorkspaceRole,
    leaveWorkspace,
  };
};
