import type { Account } from '#lib/accounts/account.ts';
import { accountSecurityRepository } from '#lib/accounts/account-security-repository.ts';
import type { Table } from '#lib/store/table.ts';
import { workspaceRepository } from './workspace-repository.ts';

/**
 * What someone who registered an address without proving it set up goes when the address's owner proves
 * it: the workspace a business registration opened (an unverified account can never sign in, so nothing
 * else can have been added to it). Runs after the account let go of the workspace, so a crash in between
 * leaves an unreachable workspace, never an account pointing at a deleted one.
 */
export const discardSetupOf = async (table: Table, registrant: Account): Promise<void> => {
  if (registrant.businessId) await workspaceRepository(table, registrant.businessId).discardOpenedBy(registrant.id);
};

/** A registration displaced by a newer one for its address: its workspace, then the account itself. */
export const discardDisplaced = async (table: Table, displaced: Account | undefined): Promise<void> => {
  if (!displaced) return;
  await discardSetupOf(table, displaced);
  await accountSecurityRepository(table, displaced.id).deleteUnverified();
};
