import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import { isConditionFailure } from '#lib/store/store-errors.ts';
import { workspaceItemKey } from './workspace-repository.ts';
import { listMembers } from './workspace-repository.ts';

/**
 * The workspace's ADMINs, as the string set `adminIds` on the workspace item. "Is this the last ADMIN?"
 * and "take this ADMIN away" must be one conditional write, or two admins demoting each other at once
 * would both succeed and leave none; without transactions that needs the set on one item. Taking away
 * is done before the account's role changes and adding after, so a crash between leaves the set
 * short of an ADMIN (a refusal too many), never holding one who is not.
 */

const readAdminIds = async (table: Table, workspaceId: string): Promise<Set<string> | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.name,
      Key: workspaceItemKey(workspaceId),
      ProjectionExpression: 'adminIds',
      ConsistentRead: true,
    }),
  );
  return Item?.adminIds as Set<string> | undefined;
};

/** Workspaces created before the set existed get it from their member list, once. */
const backfillAdminIds = async (table: Table, workspaceId: string): Promise<void> => {
  const admins = (await listMembers(table, workspaceId)).filter((member) => member.role === 'ADMIN');
  if (admins.length === 0) return;
  await unlessConditionFails(async () => {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: workspaceItemKey(workspaceId),
        UpdateExpression: 'SET adminIds = :ids',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(adminIds)',
        ExpressionAttributeValues: { ':ids': new Set(admins.map((member) => member.id)) },
      }),
    );
  });
};

export const addAdmin = async (table: Table, workspaceId: string, accountId: string): Promise<void> => {
  const add = (condition: string) =>
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: workspaceItemKey(workspaceId),
        UpdateExpression: 'ADD adminIds :id',
        ConditionExpression: condition,
        ExpressionAttributeValues: { ':id': new Set([accountId]) },
      }),
    );
  try {
    await add('attribute_exists(adminIds)');
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await backfillAdminIds(table, workspaceId);
    await add('attribute_exists(pk)');
  }
};

/** Takes `accountId` out of the ADMINs unless it is the last one; false means it is the last. */
export const withdrawAdmin = async (
  table: Table,
  workspaceId: string,
  accountId: string,
  backfilled = false,
): Promise<boolean> => {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: workspaceItemKey(workspaceId),
        UpdateExpression: 'DELETE adminIds :id',
        ConditionExpression: 'contains(adminIds, :account) AND size(adminIds) > :one',
        ExpressionAttributeValues: { ':id': new Set([accountId]), ':account': accountId, ':one': 1 },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const adminIds = await readAdminIds(table, workspaceId);
  if (!adminIds && !backfilled) {
    await backfillAdminIds(table, workspaceId);
    return withdrawAdmin(table, workspaceId, accountId, true);
  }
  // Not in the set (a crash between the two writes of an earlier change): other ADMINs remain.
  return adminIds !== undefined && !adminIds.has(accountId);
};
