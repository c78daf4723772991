import type { Account } from '#lib/accounts/account.ts';
import { accountSecurityRepository } from '#lib/accounts/account-security-repository.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { workspaceRepository } from './workspace-repository.ts';

/**
 * What someone who registered an address without proving it set up goes when the address's owner proves
 * it: the workspace a business registration opened (an unverified account can never sign in, so nothing
 * else can have been added to it). Runs after the account let go of the workspace, so a crash in between
 * leaves an unreachable workspace, never an account pointing at a deleted one.
 */
export const discardSetupOf = async ({ ports }: AccountScope, registrant: Account): Promise<void> => {
  if (registrant.businessId)
    await workspaceRepository(ports.table, registrant.businessId).discardOpenedBy(registrant.id);
};

/** A registration displaced by a newer one for its address: its workspace, then the account itself. */
export const discardDisplaced = async (scope: AccountScope, displaced: Account | undefined): Promise<void> => {
  if (!displaced) return;
  await discardSetupOf(scope, displaced);
  await accountSecurityRepository(scope.ports.table, displaced.id).deleteUnverified();
};
