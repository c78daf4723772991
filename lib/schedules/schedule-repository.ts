import { batchDeleteItems } from '#lib/store/batch.ts';
import { deleteIfPresent, putItem } from '#lib/store/conditional-writes.ts';
import { getItem, keyOf } from '#lib/store/items.ts';
import { storedFields } from '#lib/store/item-values.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import type { Override, Schedule } from './schedule.ts';

/**
 * One partition per workspace (`{W}#SCHEDULE`): a schedule at `<scheduleId>`, its overrides at
 * `<scheduleId>#OVERRIDE#<overrideId>`, so one Query reads a schedule's overrides and deleting it finds them.
 */
const partition = (workspaceId: string): string => workspaceKey(workspaceId, 'SCHEDULE');
const scheduleKey = (workspaceId: string, scheduleId: string) => ({ pk: partition(workspaceId), sk: scheduleId });
const overridePrefix = (scheduleId: string): string => `${scheduleId}#OVERRIDE#`;
const overrideKey = (workspaceId: string, scheduleId: string, overrideId: string) => ({
  pk: partition(workspaceId),
  sk: `${overridePrefix(scheduleId)}${overrideId}`,
});

const SCHEDULE_TYPE = 'SCHEDULE';
const OVERRIDE_TYPE = 'SCHEDULE_OVERRIDE';

const scheduleFromItem = (item: Record<string, unknown>): Schedule =>
  storedFields<Schedule>()(item, ['id', 'name', 'timezone', 'layers', 'feedSecret', 'createdAt', 'updatedAt']);

const overrideFromItem = (item: Record<string, unknown>): Override =>
  storedFields<Override>()(item, ['id', 'scheduleId', 'userId', 'start', 'end', 'createdAt']);

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const scheduleRepository = (table: Table, workspaceId: string) => {
  const owned = (item: Record<string, unknown> | undefined) => {
    if (item && item.workspaceId !== workspaceId) throw new Error('a schedule of another workspace was read');
    return item;
  };

  const getSchedule = async (scheduleId: string): Promise<Schedule | undefined> => {
    const item = owned(await getItem(table, scheduleKey(workspaceId, scheduleId)));
    return item?.type === SCHEDULE_TYPE ? scheduleFromItem(item) : undefined;
  };

  const listSchedules = async (): Promise<Schedule[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: '#type = :type',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':pk': partition(workspaceId), ':type': SCHEDULE_TYPE },
    });
    return items.map((item) => scheduleFromItem(owned(item) as Record<string, unknown>));
  };

  const putSchedule = (schedule: Schedule): Promise<void> =>
    putItem(table, { ...scheduleKey(workspaceId, schedule.id), type: SCHEDULE_TYPE, workspaceId, ...schedule });

  const overrideItems = (scheduleId: string) =>
    queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition(workspaceId), ':prefix': overridePrefix(scheduleId) },
    });

  /** The schedule first (it answers 404 from then on), then the overrides it leaves behind. */
  const deleteSchedule = async (scheduleId: string): Promise<boolean> => {
    const deleted = await deleteIfPresent(table, scheduleKey(workspaceId, scheduleId));
    if (!deleted) return false;
    await batchDeleteItems(table, (await overrideItems(scheduleId)).map(keyOf));
    return true;
  };

  const listOverrides = async (scheduleId: string): Promise<Override[]> =>
    (await overrideItems(scheduleId)).map((item) => overrideFromItem(owned(item) as Record<string, unknown>));

  const putOverride = (override: Override): Promise<void> =>
    putItem(table, {
      ...overrideKey(workspaceId, override.scheduleId, override.id),
      type: OVERRIDE_TYPE,
      workspaceId,
      ...override,
    });

  const deleteOverride = async (scheduleId: string, overrideId: string): Promise<boolean> =>
    (await deleteIfPresent(table, overrideKey(workspaceId, scheduleId, overrideId))) !== undefined;

  return { getSchedule, listSchedules, putSchedule, deleteSchedule, listOverrides, putOverride, deleteOverride };
};
