import { updateIf, putItem } from '#lib/store/conditional-writes.ts';
import { addToCountersTogether } from '#lib/store/coalesced-counters.ts';
import { filterCounterName, isCombinationCounter, sumCounts } from '#lib/store/counters.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { getItem } from '#lib/store/items.ts';
import { listCounterKey } from '#lib/store/list-counters.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import type { SignalStatus } from './signal.ts';
import {
  type Counted,
  filterValues,
  INGESTED_PREFIX,
  newSignalDelta,
  SIGNAL_COUNTER,
  type SignalCounterValues,
  type SignalListFilter,
  SOURCE_PREFIX,
  STATUS_PREFIX,
} from './signal-counter.ts';
import { signalPartition } from './signal-item.ts';

export interface SignalCounts {
  total: number;
  byStatus: Record<SignalStatus, number>;
  /** Source key to count. */
  bySource: Map<string, number>;
}

/** SIGNAL_COUNTER's item (signal-counter.ts says what it counts), bound to one workspace. */
export const signalCounterRepository = (table: Table, workspaceId: string) => {
  const key = listCounterKey(workspaceId, SIGNAL_COUNTER.name);

  /** A counter attribute as read; drift below zero (a lost increment) reads as none. */
  const readCounter = async () => {
    const Item = (await getItem(table, key, false)) ?? {};
    const count = (name: string): number => (typeof Item[name] === 'number' ? Math.max(0, Item[name]) : 0);
    return { names: Object.keys(Item), count };
  };

  /** Adds with the other additions to the counter in flight (coalesced-counters.ts): one hot item. */
  const addToSignalCounter = async (delta: SignalCounterValues): Promise<void> => {
    if (Object.keys(delta).length === 0) return;
    await addToCountersTogether(table, key, delta, { type: SIGNAL_COUNTER.type, workspaceId });
  };

  /**
   * Recomputes the counter from the signals themselves (the recount job, docs/data-model.md 6) and writes
   * it whole, keeping the hours not rolled up yet. The signals are read with the four attributes the
   * counter needs; an ADD racing this write can be lost or doubled, which the next recount repairs.
   */
  const recountSignals = async (): Promise<number> => {
    const signals = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': signalPartition(workspaceId) },
      ExpressionAttributeNames: { '#status': 'status', '#source': 'source' },
      ProjectionExpression: '#status, severity, #source, serviceId',
    });
    const counts = sumCounts(signals.map((item) => newSignalDelta(item as Counted)));
    const current = (await getItem(table, key, false)) ?? {};
    const pendingHours = Object.entries(current).filter(([name]) => name.startsWith(INGESTED_PREFIX));
    await putItem(table, {
      ...key,
      type: SIGNAL_COUNTER.type,
      workspaceId,
      ...counts,
      ...Object.fromEntries(pendingHours),
    });
    return signals.length;
  };

  /** The total of one filtered list: one attribute of the counter. */
  const readSignalTotal = async (filter: SignalListFilter): Promise<number> =>
    (await readCounter()).count(filterCounterName(filterValues(filter)));

  const readSignalCounter = async (): Promise<SignalCounts> => {
    const { names, count } = await readCounter();
    const bySource = new Map<string, number>();
    for (const name of names) {
      if (name.startsWith(SOURCE_PREFIX) && !isCombinationCounter(name) && count(name) > 0) {
        bySource.set(name.slice(SOURCE_PREFIX.length), count(name));
      }
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

  /**
   * The new signals of hours the sweep has not rolled up yet, by hour (`YYYY-MM-DDTHH`): what the
   * dashboard adds to the METRIC_HOUR rollups it reads, so the current hour counts too.
   */
  const readPendingIngestedHours = async (): Promise<Map<string, number>> => {
    const { names, count } = await readCounter();
    return new Map(
      names
        .filter((name) => name.startsWith(INGESTED_PREFIX))
        .map((name) => [name.slice(INGESTED_PREFIX.length), count(name)]),
    );
  };

  /** The same hours as stored, for the sweep that moves them: a count at zero or below included. */
  const readIngestedHours = async (): Promise<Map<string, number>> => {
    const item = (await getItem(table, key)) ?? {};
    return new Map(
      Object.entries(item)
        .filter(
          (entry): entry is [string, number] => entry[0].startsWith(INGESTED_PREFIX) && typeof entry[1] === 'number',
        )
        .map(([name, count]) => [name.slice(INGESTED_PREFIX.length), count]),
    );
  };

  /** Takes an hour's signals, moved to its rollup, out of the counter. */
  const subtractIngested = async (hour: string, count: number): Promise<void> => {
    await addToCounters(table, key, { [`${INGESTED_PREFIX}${hour}`]: -count });
  };

  /** Removes an hour's attribute that is at zero (a late ADD since makes it stay). */
  const removeEmptyHour = async (hour: string): Promise<void> => {
    await updateIf(table, key, {
      UpdateExpression: 'REMOVE #hour',
      ConditionExpression: '#hour = :zero',
      ExpressionAttributeNames: { '#hour': `${INGESTED_PREFIX}${hour}` },
      ExpressionAttributeValues: { ':zero': 0 },
    });
  };

  return {
    addToSignalCounter,
    recountSignals,
    readSignalTotal,
    readSignalCounter,
    readPendingIngestedHours,
    readIngestedHours,
    subtractIngested,
    removeEmptyHour,
  };
};
