import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import {
  correlationGroupItemKey,
  emptyGroup,
  groupFromItem,
  groupToItem,
  type CorrelationGroup,
} from './correlation-group-item.ts';

/** A group untouched this long is forgotten: its next signal starts counting afresh and opens a new incident. */
const GROUP_LIFETIME_MS = 30 * 24 * 60 * 60 * 1_000;

export const readGroup = async (
  table: Table,
  workspaceId: string,
  ruleId: string,
  groupKey: string,
  now: Date,
): Promise<CorrelationGroup> => {
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.name,
      Key: correlationGroupItemKey(workspaceId, ruleId, groupKey),
      ConsistentRead: true,
    }),
  );
  return Item ? groupFromItem(workspaceId, Item, now) : emptyGroup(ruleId, groupKey);
};

/**
 * Writes the group's next state if it is still at the `rev` it was read at; false when another worker
 * wrote it in between (re-read and decide again).
 */
export const writeGroup = async (
  table: Table,
  workspaceId: string,
  next: Omit<CorrelationGroup, 'rev'>,
  readRev: number,
  now: Date,
): Promise<boolean> => {
  return unlessConditionFails(
    async () => {
      await table.doc.send(
        new PutCommand({
          TableName: table.name,
          Item: groupToItem(workspaceId, { ...next, rev: readRev + 1 }, new Date(now.getTime() + GROUP_LIFETIME_MS)),
          ConditionExpression: readRev === 0 ? 'attribute_not_exists(sk)' : 'rev = :rev',
          ...(readRev !== 0 && { ExpressionAttributeValues: { ':rev': readRev } }),
        }),
      );
      return true;
    },
    () => false,
  );
};
