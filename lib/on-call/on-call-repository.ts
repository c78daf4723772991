import { assertOfWorkspace, storedFields } from '#lib/store/item-values.ts';
import type { OnCallAssignment } from './on-call.ts';
import type { Table } from '#lib/store/table.ts';
import { timeKey, workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import { putIf, putNew } from '#lib/store/conditional-writes.ts';
import { findItem, getItem } from '#lib/store/items.ts';

/** ONCALL items (docs/data-model.md 5.12): base `{W}#ONCALL` / `<id>`, gsi2 by start instant. */
const assignmentPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'ONCALL');

const assignmentsByStartPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'ONCALL', 'BYSTART');

const assignmentItemKey = (workspaceId: string, assignmentId: string) => ({
  pk: assignmentPartition(workspaceId),
  sk: assignmentId,
});

const assignmentIndexKeys = (workspaceId: string, assignment: Pick<OnCallAssignment, 'id' | 'startsAt'>) => ({
  gsi2pk: assignmentsByStartPartition(workspaceId),
  gsi2sk: timeKey(assignment.startsAt, assignment.id),
});

const assignmentToItem = (workspaceId: string, assignment: OnCallAssignment): Record<string, unknown> => ({
  ...assignmentItemKey(workspaceId, assignment.id),
  ...assignmentIndexKeys(workspaceId, assignment),
  type: 'ONCALL',
  workspaceId,
  ...assignment,
});

const assignmentFromItem = (item: Record<string, unknown>, workspaceId: string): OnCallAssignment => {
  assertOfWorkspace(item, workspaceId, `on-call assignment ${String(item.id)}`);
  return storedFields<OnCallAssignment>()(item, [
    'id',
    'userId',
    'email',
    'date',
    'startTime',
    'endTime',
    'timezone',
    'startsAt',
    'endsAt',
    'createdAt',
  ]);
};

/** A shift held in a member's day, with when it was reserved (see `ShiftDay`). */
export interface ReservedShift {
  id: string;
  startsAt: string;
  endsAt: string;
  reservedAt: string;
}

/**
 * ONCALL_SHIFTS: every shift of one member on one date, in one item with a `rev`, so that "no two
 * shifts of a person overlap" is checked and reserved by one conditional write (data-model rule 4).
 * Without it, two identical requests sent at once (a double click) would both be accepted.
 */
export interface ShiftDay {
  shifts: ReservedShift[];
  /** 0 when the item does not exist yet. */
  rev: number;
}

const shiftDayItemKey = (workspaceId: string, userId: string, date: string) => ({
  pk: workspaceKey(workspaceId, 'ONCALL', 'SHIFTS'),
  sk: `${userId}#${date}`,
});

const shiftDayToItem = (workspaceId: string, userId: string, date: string, day: ShiftDay): Record<string, unknown> => ({
  ...shiftDayItemKey(workspaceId, userId, date),
  type: 'ONCALL_SHIFTS',
  workspaceId,
  userId,
  date,
  ...day,
});

const shiftDayFromItem = (item: Record<string, unknown> | undefined): ShiftDay => ({
  shifts: (item?.shifts as ReservedShift[] | undefined) ?? [],
  rev: (item?.rev as number | undefined) ?? 0,
});

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const onCallRepository = (table: Table, workspaceId: string) => {
  const insertAssignment = async (assignment: OnCallAssignment): Promise<void> => {
    await putNew(table, assignmentToItem(workspaceId, assignment));
  };

  const findAssignment = async (assignmentId: string): Promise<OnCallAssignment | undefined> => {
    return findItem(table, assignmentItemKey(workspaceId, assignmentId), (item) =>
      assignmentFromItem(item, workspaceId),
    );
  };

  /** Every assignment, latest start first (unpaged, docs/data-model.md 4). */
  const queryAssignments = async (): Promise<OnCallAssignment[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': assignmentsByStartPartition(workspaceId) },
      ScanIndexForward: false,
    });
    return items.map((item) => assignmentFromItem(item, workspaceId));
  };

  /**
   * The assignments that overlap `[from, to]` (an instant when the two are equal): `startsAt` in
   * `[earliestStart, to]` and `endsAt` after `from`, earliest start first. `~` sorts after the `#<id>` that
   * follows a start equal to `to`.
   */
  const assignmentsOverlapping = async ({
    from,
    to,
    earliestStart,
  }: {
    from: string;
    to: string;
    earliestStart: string;
  }): Promise<OnCallAssignment[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
      FilterExpression: 'endsAt > :windowStart',
      ExpressionAttributeValues: {
        ':pk': assignmentsByStartPartition(workspaceId),
        ':from': earliestStart,
        ':to': `${to}~`,
        ':windowStart': from,
      },
    });
    return items.map((item) => assignmentFromItem(item, workspaceId));
  };

  const readShiftDay = async (userId: string, date: string): Promise<ShiftDay> => {
    const Item = await getItem(table, shiftDayItemKey(workspaceId, userId, date));
    return shiftDayFromItem(Item);
  };

  /** Replaces a member's day if nobody changed it since it was read at `day.rev`; false if somebody did. */
  const writeShiftDay = async (userId: string, date: string, day: ShiftDay): Promise<boolean> => {
    return putIf(table, shiftDayToItem(workspaceId, userId, date, { ...day, rev: day.rev + 1 }), {
      ConditionExpression: day.rev === 0 ? 'attribute_not_exists(sk)' : 'rev = :read',
      ...(day.rev !== 0 && { ExpressionAttributeValues: { ':read': day.rev } }),
    });
  };
  return { insertAssignment, findAssignment, queryAssignments, assignmentsOverlapping, readShiftDay, writeShiftDay };
};

export type OnCallRepository = ReturnType<typeof onCallRepository>;
