import { addToCountersTogether } from '#lib/store/coalesced-counters.ts';
import {
  counterDelta,
  type FilterValues,
  filterCounterName,
  filterCounts,
  isCombinationCounter,
  sumCounts,
} from '#lib/store/counters.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import type { Signal, SignalSeverity, SignalStatus } from './signal.ts';
import { serviceKeyOf, signalPartition, sourceKeyOf } from './signal-item.ts';
import { putItem } from '#lib/store/conditional-writes.ts';
import { hourOf } from '#lib/rollups/metric-hour-repository.ts';
import { queryAll } from '#lib/store/queries.ts';

/**
 * SIGNAL_COUNTER (docs/data-model.md 5.7, 5.16): `total`, and one attribute per combination of status,
 * severity and source (`status#<S>`, `source#<sourceKey>`, `severity#<V>|status#<S>`, ...), kept by `ADD`
 * right after each signal write, so every list total and `/signals/stats` are one GetItem however many
 * signals there are. A crash between the two writes can leave it off by one; the recount job repairs that.
 * The same write counts a new signal in `ingested#<hour>`, which the sweep moves to the hour's
 * METRIC_HOUR rollup once the hour is over (`rollUpIngestedHours`), so a new signal costs one counter
 * write, not two.
 */
export const counterKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId, 'COUNTER'), sk: 'SIGNALS' });

export type SignalCounterValues = Record<string, number>;

const STATUS_PREFIX = 'status#';
const SOURCE_PREFIX = 'source#';
export const INGESTED_PREFIX = 'ingested#';

/** A new signal also counts in the hour it was received, until the sweep rolls that hour up. */
export const ingestedDelta = (receivedAt: Date): SignalCounterValues => ({
  [`${INGESTED_PREFIX}${hourOf(receivedAt)}`]: 1,
});

/** The list filters of a signal, as its counter and its list name them. */
export interface SignalListFilter {
  status?: SignalStatus;
  severity?: SignalSeverity;
  sourceKey?: string;
  serviceKey?: string;
}

/**
 * A service is counted alone and with the status only (`service#<key>`, `service#<key>|status#<S>`),
 * not in every combination as sources are: a workspace has many more services than sources, and the
 * counter is one item. `serviceId` with severity or source is counted from its index (`countsServiceFilter`).
 */
const serviceCounts = (serviceId: string | null | undefined, status: SignalStatus): SignalCounterValues => {
  if (!serviceId) return {};
  const service = serviceKeyOf(serviceId);
  return { [filterCounterName({ service })]: 1, [filterCounterName({ service, status })]: 1 };
};

/** Whether the counter holds the total of a list filtered this way. */
export const counterHoldsTotal = ({ serviceKey, severity, sourceKey }: SignalListFilter): boolean =>
  serviceKey === undefined || (severity === undefined && sourceKey === undefined);

const filterValues = ({ status, severity, sourceKey, serviceKey }: SignalListFilter): FilterValues => ({
  status,
  severity,
  source: sourceKey,
  service: serviceKey,
});

type Counted = Pick<Signal, 'status' | 'severity' | 'source'> & { serviceId?: string | null };

/** What one signal adds to the counter: a new signal's delta, and what the recount adds up. */
export const newSignalDelta = (signal: Counted): SignalCounterValues => ({
  ...filterCounts(filterValues({ ...signal, sourceKey: sourceKeyOf(signal.source) })),
  ...serviceCounts(signal.serviceId, signal.status),
});

/** A move changes only the status: every combination with the old status loses it, the new one gains it. */
export const moveDelta = (before: Signal, to: SignalStatus): SignalCounterValues =>
  counterDelta(newSignalDelta(before), newSignalDelta({ ...before, status: to }));

/**
 * Recomputes the counter from the signals themselves (the recount job, docs/data-model.md 6) and writes
 * it whole, keeping the hours not rolled up yet. The signals are read with the four attributes the
 * counter needs; an ADD racing this write can be lost or doubled, which the next recount repairs.
 */
export const recountSignals = async (table: Table, workspaceId: string): Promise<number> => {
  const signals = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': signalPartition(workspaceId) },
    ExpressionAttributeNames: { '#status': 'status', '#source': 'source' },
    ProjectionExpression: '#status, severity, #source, serviceId',
  });
  const counts = sumCounts(signals.map((item) => newSignalDelta(item as Counted)));
  const current = (await getItem(table, counterKey(workspaceId), false)) ?? {};
  const pendingHours = Object.entries(current).filter(([name]) => name.startsWith(INGESTED_PREFIX));
  await putItem(table, {
    ...counterKey(workspaceId),
    type: 'SIGNAL_COUNTER',
    workspaceId,
    ...counts,
    ...Object.fromEntries(pendingHours),
  });
  return signals.length;
};

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
/** A counter attribute as read; drift below zero (a lost increment) reads as none. */
const readCounter = async (table: Table, workspaceId: string) => {
  const Item = (await getItem(table, counterKey(workspaceId), false)) ?? {};
  const count = (name: string): number => (typeof Item[name] === 'number' ? Math.max(0, Item[name]) : 0);
  return { names: Object.keys(Item), count };
};

/** The total of one filtered list: one attribute of the counter. */
export const readSignalTotal = async (table: Table, workspaceId: string, filter: SignalListFilter): Promise<number> =>
  (await readCounter(table, workspaceId)).count(filterCounterName(filterValues(filter)));

export const readSignalCounter = async (table: Table, workspaceId: string): Promise<SignalCounts> => {
  const { names, count } = await readCounter(table, workspaceId);
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
export const readPendingIngestedHours = async (table: Table, workspaceId: string): Promise<Map<string, number>> => {
  const { names, count } = await readCounter(table, workspaceId);
  return new Map(
    names
      .filter((name) => name.startsWith(INGESTED_PREFIX))
      .map((name) => [name.slice(INGESTED_PREFIX.length), count(name)]),
  );
};
