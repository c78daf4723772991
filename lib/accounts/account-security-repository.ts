import type { Table } from '#lib/store/table.ts';
import { setFields } from '#lib/store/set-fields.ts';
import { deleteIf, updateIf, updateIfPresent } from '#lib/store/conditional-writes.ts';
import type { Account } from './account.ts';
import {
  AccountChangedError,
  accountFromItem,
  accountProfileKey,
  accountRepository,
  type NewCredentials,
} from './account-repository.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './tokens.ts';

/**
 * The writes that end an account's sessions or its hold on an address. Apart from account-repository.ts
 * because the authentication path every cold start loads reads accounts through that module's factory,
 * which would carry these too, and never makes them.
 */
export const accountSecurityRepository = (table: Table, accountId: string) => {
  /**
   * The mailbox's owner takes over an account someone registered without proving the address: new
   * credentials, verified, out of the workspace the registrant opened, and the session version raised, in
   * one write conditional on the account still being unverified (a concurrent takeover wins once).
   */
  const takeOverUnverified = async (credentials: NewCredentials, now: string): Promise<Account> => {
    const set = setFields({ ...credentials, isVerified: true, businessId: null, roles: [], updatedAt: now });
    const taken = await updateIfPresent(table, accountProfileKey(accountId), {
      UpdateExpression: `${set.UpdateExpression} ADD sessionVersion :one`,
      ConditionExpression: 'isVerified = :unverified',
      ExpressionAttributeNames: set.ExpressionAttributeNames,
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':one': 1, ':unverified': false },
    });
    if (!taken) throw new AccountChangedError(accountId);
    return accountFromItem(taken);
  };

  /**
   * Records a revoked login on the account, where every Bearer request looks, and forgets the ones revoked
   * longer ago than an access token lives. Conditional on the map read, so two revocations at once both
   * stay (the loser reads again).
   */
  const recordRevokedLogin = async (familyId: string, now: Date): Promise<void> => {
    const at = Math.floor(now.getTime() / 1000);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const seen = (await accountRepository(table, accountId).getAccount())?.revokedLogins;
      const kept = Object.entries(seen ?? {}).filter(([, revokedAt]) => revokedAt > at - ACCESS_TOKEN_TTL_SECONDS);
      const written = await updateIf(table, accountProfileKey(accountId), {
        UpdateExpression: 'SET revokedLogins = :logins',
        ConditionExpression: seen
          ? 'revokedLogins = :seen'
          : 'attribute_exists(pk) AND attribute_not_exists(revokedLogins)',
        ExpressionAttributeValues: {
          ':logins': { ...Object.fromEntries(kept), [familyId]: at },
          ...(seen && { ':seen': seen }),
        },
      });
      if (written) return;
    }
    throw new AccountChangedError(accountId);
  };

  /** Deletes an account that never proved its address (one a new registration displaced); a verified one stays. */
  const deleteUnverified = async (): Promise<void> => {
    await deleteIf(table, accountProfileKey(accountId), {
      ConditionExpression: 'isVerified = :unverified',
      ExpressionAttributeValues: { ':unverified': false },
    });
  };

  return { takeOverUnverified, deleteUnverified, recordRevokedLogin };
};
