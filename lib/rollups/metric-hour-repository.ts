import { countersOf } from '#lib/store/counters.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * METRIC_HOUR (docs/data-model.md 5.16): one small item per UTC hour of a workspace that saw activity,
 * holding counts and sums that writes ADD to, so the dashboard reads a window as one Query of at most
 * one item per hour however many incidents and signals the workspace has. The module that owns the
 * partition: signals roll their hourly counts up here, incidents add their contributions.
 */
const metricPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'METRIC');

const HOUR_PREFIX = 'HOUR#';

/** The UTC hour of an instant as rollups name it, `YYYY-MM-DDTHH`. */
export const hourOf = (instant: Date | string): string => new Date(instant).toISOString().slice(0, 13);

/** The first instant of an hour named by `hourOf`. */
export const hourStart = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);

const metricHourKey = (workspaceId: string, hour: string) => ({
  pk: metricPartition(workspaceId),
  sk: `${HOUR_PREFIX}${hour}`,
});

export interface HourRollup {
  hour: string;
  counts: Record<string, number>;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const metricHourRepository = (table: Table, workspaceId: string) => {
  /** One unconditional ADD per hour: concurrent writers never lose each other's additions. */
  const addToHours = async (deltas: ReadonlyMap<string, Record<string, number>>): Promise<void> => {
    await Promise.all(
      [...deltas]
        .filter(([, delta]) => Object.keys(delta).length > 0)
        .map(([hour, delta]) =>
          addToCounters(table, metricHourKey(workspaceId, hour), delta, { type: 'METRIC_HOUR', workspaceId }),
        ),
    );
  };

  /** The rollups of the hours from `fromHour` to `toHour`, both included, oldest first. */
  const readHours = async (fromHour: string, toHour: string): Promise<HourRollup[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': metricPartition(workspaceId),
        ':from': `${HOUR_PREFIX}${fromHour}`,
        ':to': `${HOUR_PREFIX}${toHour}`,
      },
    });
    return items.map((item) => {
      if (item.workspaceId !== workspaceId) throw new Error('a rollup item of another workspace was read');
      return { hour: String(item.sk).slice(HOUR_PREFIX.length), counts: countersOf(item) };
    });
  };
  return { addToHours, readHours };
};
