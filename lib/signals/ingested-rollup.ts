import { updateIf } from '#lib/store/conditional-writes.ts';
import { addToCounters, countersOf } from '#lib/store/counters.ts';
import { getItem } from '#lib/store/items.ts';
import type { Table } from '#lib/store/table.ts';
import { hourOf, metricHourRepository } from '#lib/rollups/metric-hour-repository.ts';
import { INGESTED_PREFIX, counterKey } from './signal-counter.ts';

/**
 * Moves the new signals counted in SIGNAL_COUNTER's `ingested#<hour>` attributes of hours that are over
 * into each hour's METRIC_HOUR rollup (docs/data-model.md 5.16), so the counter item stays small: added
 * to the rollup, then subtracted from the counter (an event the ingestion worker stores late for an hour
 * already moved is moved the next time), and an attribute at zero is removed. A crash between the two
 * writes counts those signals twice, never loses them. Answers how many signals it moved.
 */
export const rollUpIngestedHours = async (table: Table, workspaceId: string, now: Date): Promise<number> => {
  const counter = countersOf(await getItem(table, counterKey(workspaceId)));
  const current = hourOf(now);
  let moved = 0;
  for (const [name, count] of Object.entries(counter)) {
    const hour = name.startsWith(INGESTED_PREFIX) ? name.slice(INGESTED_PREFIX.length) : undefined;
    if (hour === undefined || hour >= current) continue;
    if (count === 0) {
      await updateIf(table, counterKey(workspaceId), {
        UpdateExpression: 'REMOVE #hour',
        ConditionExpression: '#hour = :zero',
        ExpressionAttributeNames: { '#hour': name },
        ExpressionAttributeValues: { ':zero': 0 },
      });
      continue;
    }
    await metricHourRepository(table, workspaceId).addToHours(new Map([[hour, { signalsIngested: count }]]));
    await addToCounters(table, counterKey(workspaceId), { [name]: -count });
    moved += count;
  }
  return moved;
};
