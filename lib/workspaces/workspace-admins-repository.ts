import type { Table } from '#lib/store/table.ts';
import { updateIf, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceItemKey } from './workspace-repository.ts';
import { workspaceRepository } from './workspace-repository.ts';

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const workspaceAdminsRepository = (table: Table, workspaceId: string) => {
  /**
   * The workspace's ADMINs, as the string set `adminIds` on the workspace item. "Is this the last ADMIN?"
   * and "take this ADMIN away" must be one conditional write, or two admins demoting each other at once
   * would both succeed and leave none; without transactions that needs the set on one item. Taking away
   * is done before the account's role changes and adding after, so a crash between leaves the set
   * short of an ADMIN (a refusal too many), never holding one who is not.
   */

  const readAdminIds = async (): Promise<Set<string> | undefined> =>
    (await getItem(table, workspaceItemKey(workspaceId)))?.adminIds as Set<string> | undefined;

  /** Workspaces created before the set existed get it from their member list, once. */
  const backfillAdminIds = async (): Promise<void> => {
    const admins = (await workspaceRepository(table, workspaceId).listMembers()).filter(
      (member) => member.role === 'ADMIN',
    );
    if (admins.length === 0) return;
    await updateIfPresent(table, workspaceItemKey(workspaceId), {
      UpdateExpression: 'SET adminIds = :ids',
      ConditionExpression: 'attribute_not_exists(adminIds)',
      ExpressionAttributeValues: { ':ids': new Set(admins.map((member) => member.id)) },
    });
  };

  const addAdmin = async (accountId: string): Promise<void> => {
    const add = (condition: string) =>
      updateIf(table, workspaceItemKey(workspaceId), {
        UpdateExpression: 'ADD adminIds :id',
        ConditionExpression: condition,
        ExpressionAttributeValues: { ':id': new Set([accountId]) },
      });
    if (await add('attribute_exists(adminIds)')) return;
    await backfillAdminIds();
    if (!(await add('attribute_exists(pk)'))) throw new Error(`workspace ${workspaceId} does not exist`);
  };

  /** Takes `accountId` out of the ADMINs unless it is the last one; false means it is the last. */
  const withdrawAdmin = async (accountId: string, backfilled = false): Promise<boolean> => {
    const withdrawn = await updateIf(table, workspaceItemKey(workspaceId), {
      UpdateExpression: 'DELETE adminIds :id',
      ConditionExpression: 'contains(adminIds, :account) AND size(adminIds) > :one',
      ExpressionAttributeValues: { ':id': new Set([accountId]), ':account': accountId, ':one': 1 },
    });
    if (withdrawn) return true;
    const adminIds = await readAdminIds();
    if (!adminIds && !backfilled) {
      await backfillAdminIds();
      return withdrawAdmin(accountId, true);
    }
    // Not in the set (a crash between the two writes of an earlier change): other ADMINs remain.
    return adminIds !== undefined && !adminIds.has(accountId);
  };
  return { addAdmin, withdrawAdmin };
};
