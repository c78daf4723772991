import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { unlessConditionFails } from '#lib/store/conditional-writes.ts';
import type { OnCallAssignment } from './on-call.ts';
import {
  assignmentFromItem,
  assignmentItemKey,
  assignmentToItem,
  assignmentsByStartPartition,
  shiftDayFromItem,
  shiftDayItemKey,
  shiftDayToItem,
  type ShiftDay,
} from './on-call-item.ts';

export const insertAssignment = async (
  table: Table,
  workspaceId: string,
  assignment: OnCallAssignment,
): Promise<void> => {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: assignmentToItem(workspaceId, assignment),
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
};

export const findAssignment = async (
  table: Table,
  workspaceId: string,
  assignmentId: string,
): Promise<OnCallAssignment | undefined> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: assignmentItemKey(workspaceId, assignmentId), ConsistentRead: true }),
  );
  return Item && assignmentFromItem(Item, workspaceId);
};

/** Every assignment, latest start first (unpaged, docs/data-model.md 4). */
export const queryAssignments = async (table: Table, workspaceId: string): Promise<OnCallAssignment[]> => {
  const items = await queryAll(table, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': assignmentsByStartPartition(workspaceId) },
    ScanIndexForward: false,
  });
  return items.map((item) => assignmentFromItem(item, workspaceId));
};

/**
 * The assignments with `startsAt` in `[earliestStart, instant]` and `endsAt` after `instant`, earliest
 * start first. `~` sorts after the `#<id>` that follows a start equal to `instant`.
 */
export const assignmentsCovering = async (
  table: Table,
  workspaceId: string,
  instant: string,
  earliestStart: string,
): Promise<OnCallAssignment[]> => {
  const items = await queryAll(table, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
    FilterExpression: 'endsAt > :instant',
    ExpressionAttributeValues: {
      ':pk': assignmentsByStartPartition(workspaceId),
      ':from': earliestStart,
      ':to': `${instant}~`,
      ':instant': instant,
    },
  });
  return items.map((item) => assignmentFromItem(item, workspaceId));
};

export const readShiftDay = async (
  table: Table,
  workspaceId: string,
  userId: string,
  date: string,
): Promise<ShiftDay> => {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: shiftDayItemKey(workspaceId, userId, date), ConsistentRead: true }),
  );
  return shiftDayFromItem(Item);
};

/** Replaces a member's day if nobody changed it since it was read at `day.rev`; false if somebody did. */
export const writeShiftDay = async (
  table: Table,
  workspaceId: string,
  userId: string,
  date: string,
  day: ShiftDay,
): Promise<boolean> => {
  return unlessConditionFails(
    async () => {
      await table.doc.send(
        new PutCommand({
          TableName: table.name,
          Item: shiftDayToItem(workspaceId, userId, date, { ...day, rev: day.rev + 1 }),
          ConditionExpression: day.rev === 0 ? 'attribute_not_exists(sk)' : 'rev = :read',
          ...(day.rev !== 0 && { ExpressionAttributeValues: { ':read': day.rev } }),
        }),
      );
      return true;
    },
    () => false,
  );
};
