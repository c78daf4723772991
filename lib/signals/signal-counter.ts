import { addToCountersTogether } from '#lib/store/coalesced-counters.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import type { SignalStatus } from './signal.ts';

/**
 * SIGNAL_COUNTER (docs/data-model.md 5.7, 5.16): `total`, `status#<S>` and `source#<sourceKey>`, kept by
 * `ADD` right after each signal write, so the unfiltered list total and `/signals/stats` are one GetItem
 * however many signals there are. A crash between the two writes can leave it off by one; the recount
 * job repairs that. The same write counts a new signal in `ingested#<hour>`, which the sweep moves to the
 * hour's METRIC_HOUR rollup once the hour is over (`rollUpIngestedHours`), so a new signal costs one
 * counter write, not two.
 */
export const counterKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId, 'COUNTER'), sk: 'SIGNALS' });

export type SignalCounterValues = Record<string, number>;

const STATUS_PREFIX = 'status#';
const SOURCE_PREFIX = 'source#';
export const INGESTED_PREFIX = 'ingested#';

/** The UTC hour of an instant as rollups name it, `YYYY-MM-DDTHH`. */
export const hourOf = (instant: Date): string => instant.toISOString().slice(0, 13);

export const newSignalDelta = (status: SignalStatus, sourceKey: string, receivedAt: Date): SignalCounterValues => ({
  total: 1,
  [`${STATUS_PREFIX}${status}`]: 1,
  [`${SOURCE_PREFIX}${sourceKey}`]: 1,
  [`${INGESTED_PREFIX}${hourOf(receivedAt)}`]: 1,
});

export const moveDelta = (from: SignalStatus, to: SignalStatus): SignalCounterValues =>
  from === to ? {} : { [`${STATUS_PREFIX}${from}`]: -1, [`${STATUS_PREFIX}${to}`]: 1 };

export const addToSignalCounter = async (
  table: Table,
  workspaceId: string,
  delta: SignalCounterValues,
): Promise<void> => {
  if (Object.keys(delta).length === 0) return;
  await addToCountersTogether(table, counterKey(workspaceId), delta, { type: 'SIGNAL_COUNTER', workspaceId });
};

export interface SignalCounts {
  total: number;
  byStatus: Record<SignalStatus, number>;
  /** Source key to count. */
  bySource: Map<string, number>;
}

/** The counter's values; an absent counter (no signal yet) reads as zeros. */
export const readSignalCounter = async (table: Table, workspaceId: string): Promise<SignalCounts> => {
  const Item = (await getItem(table, counterKey(workspaceId), false)) ?? {};
  const count = (name: string): number => (typeof Item[name] === 'number' ? Math.max(0, Item[name]) : 0);
  const bySource = new Map<string, number>();
  for (const name of Object.keys(Item)) {
    if (name.startsWith(SOURCE_PREFIX) && count(name) > 0) bySource.set(name.slice(SOURCE_PREFIX.length), count(name));
  }
  return {
    total: count('total'),
    byStatus: {
      OPEN: count(`${STATUS_PREFIX}OPEN`),
      ACKNOWLEDGED: count(`${STATUS_PREFIX}ACKNOWLEDGED`),
      RESOLVED: count(`${STATUS_PREFIX}RESOLVED`),
      SUPPRESSED: count(`${STATUS_PREFIX}SUPPRESSED`),
    },
    bySource,
  };
};
