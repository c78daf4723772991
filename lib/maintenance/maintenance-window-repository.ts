import { deleteIfPresent, putNew, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { assertOfWorkspace, storedFields } from '#lib/store/item-values.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { TTL_ATTRIBUTE } from '#lib/store/table-schema.ts';
import type { MaintenanceWindow } from './maintenance-window.ts';
import type { WindowInput } from './schemas.ts';

/** MAINTENANCE_WINDOW items, one per window, in one partition per workspace (docs/data-model.md 5.19). */
const partition = (workspaceId: string): string => workspaceKey(workspaceId, 'MAINT');
const itemKey = (workspaceId: string, id: string) => ({ pk: partition(workspaceId), sk: id });

/** Ended windows stay listed for 90 days, then the table's TTL removes them, so the partition stays small. */
const KEPT_AFTER_END_SECONDS = 90 * 24 * 3600;
const expiryOf = (endsAt: string): number => Math.floor(Date.parse(endsAt) / 1000) + KEPT_AFTER_END_SECONDS;

const fromItem = (workspaceId: string, item: Record<string, unknown>): MaintenanceWindow => {
  assertOfWorkspace(item, workspaceId, `maintenance window ${String(item.id)}`);
  return storedFields<MaintenanceWindow>()(item, [
    'id',
    'serviceIds',
    'startsAt',
    'endsAt',
    'reason',
    'createdBy',
    'createdAt',
    'updatedAt',
  ]);
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const maintenanceWindowRepository = (table: Table, workspaceId: string) => {
  const read = (item: Record<string, unknown>) => fromItem(workspaceId, item);

  const insertWindow = (window: MaintenanceWindow): Promise<void> =>
    putNew(table, {
      ...itemKey(workspaceId, window.id),
      type: 'MAINTENANCE_WINDOW',
      workspaceId,
      ...window,
      [TTL_ATTRIBUTE]: expiryOf(window.endsAt),
    });

  const findWindow = (id: string): Promise<MaintenanceWindow | undefined> =>
    findItem(table, itemKey(workspaceId, id), read);

  /**
   * The workspace's windows, or only those not ended at `endingAfter`: one Query of a small partition
   * (ended windows expire), which correlation and the escalation sweep make to ask whether a service is
   * in maintenance. An expired item TTL has not removed yet is filtered out by its end.
   */
  const queryWindows = async (endingAfter?: string): Promise<MaintenanceWindow[]> =>
    (
      await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ...(endingAfter && { FilterExpression: 'endsAt > :after' }),
        ExpressionAttributeValues: { ':pk': partition(workspaceId), ...(endingAfter && { ':after': endingAfter }) },
      })
    ).map(read);

  const replaceWindow = async (id: string, input: WindowInput, at: string): Promise<MaintenanceWindow | undefined> => {
    const item = await updateIfPresent(table, itemKey(workspaceId, id), {
      UpdateExpression:
        'SET serviceIds = :serviceIds, startsAt = :startsAt, endsAt = :endsAt, reason = :reason, updatedAt = :at, #ttl = :ttl',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':serviceIds': input.serviceIds,
        ':startsAt': input.startsAt,
        ':endsAt': input.endsAt,
        ':reason': input.reason,
        ':at': at,
        ':ttl': expiryOf(input.endsAt),
      },
    });
    return item && read(item);
  };

  const removeWindow = async (id: string): Promise<boolean> =>
    (await deleteIfPresent(table, itemKey(workspaceId, id))) !== undefined;

  return { insertWindow, findWindow, queryWindows, replaceWindow, removeWindow };
};
