import type { Scope } from '#lib/identity/scope.ts';
import { hourOf, metricHourRepository } from '#lib/rollups/metric-hour-repository.ts';
import { signalCounterRepository } from './signal-counter-repository.ts';

/**
 * Moves the new signals counted in SIGNAL_COUNTER's `ingested#<hour>` attributes of hours that are over
 * into each hour's METRIC_HOUR rollup (docs/data-model.md 5.16), so the counter item stays small: added
 * to the rollup, then subtracted from the counter (an event the ingestion worker stores late for an hour
 * already moved is moved the next time), and an attribute at zero is removed. A crash between the two
 * writes counts those signals twice, never loses them. Answers how many signals it moved.
 */
export const rollUpIngestedHours = async ({ ports, workspaceId }: Scope, now: Date): Promise<number> => {
  const counter = signalCounterRepository(ports.table, workspaceId);
  const current = hourOf(now);
  let moved = 0;
  for (const [hour, count] of await counter.readIngestedHours()) {
    if (hour >= current) continue;
    if (count === 0) {
      await counter.removeEmptyHour(hour);
      continue;
    }
    await metricHourRepository(ports.table, workspaceId).addToHours(new Map([[hour, { signalsIngested: count }]]));
    await counter.subtractIngested(hour, count);
    moved += count;
  }
  return moved;
};
