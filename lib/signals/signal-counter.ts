import { counterDelta, type FilterValues, filterCounterName, filterCounts } from '#lib/store/counters.ts';
import type { Signal, SignalSeverity, SignalStatus } from './signal.ts';
import { serviceKeyOf, sourceKeyOf } from './signal-item.ts';
import { hourOf } from '#lib/rollups/metric-hour-repository.ts';

/**
 * SIGNAL_COUNTER (docs/data-model.md 5.7, 5.16): `total`, and one attribute per combination of status,
 * severity and source (`status#<S>`, `source#<sourceKey>`, `severity#<V>|status#<S>`, ...), kept by `ADD`
 * right after each signal write, so every list total and `/signals/stats` are one GetItem however many
 * signals there are. A crash between the two writes can leave it off by one; the recount job repairs that.
 * The same write counts a new signal in `ingested#<hour>`, which the sweep moves to the hour's
 * METRIC_HOUR rollup once the hour is over (`rollUpIngestedHours`), so a new signal costs one counter
 * write, not two.
 */
export const SIGNAL_COUNTER = { name: 'SIGNALS', type: 'SIGNAL_COUNTER' };

export type SignalCounterValues = Record<string, number>;

export const STATUS_PREFIX = 'status#';
export const SOURCE_PREFIX = 'source#';
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

export const filterValues = ({ status, severity, sourceKey, serviceKey }: SignalListFilter): FilterValues => ({
  status,
  severity,
  source: sourceKey,
  service: serviceKey,
});

export type Counted = Pick<Signal, 'status' | 'severity' | 'source'> & { serviceId?: string | null };

/** What one signal adds to the counter: a new signal's delta, and what the recount adds up. */
export const newSignalDelta = (signal: Counted): SignalCounterValues => ({
  ...filterCounts(filterValues({ ...signal, sourceKey: sourceKeyOf(signal.source) })),
  ...serviceCounts(signal.serviceId, signal.status),
});

/** A move changes only the status: every combination with the old status loses it, the new one gains it. */
export const moveDelta = (before: Signal, to: SignalStatus): SignalCounterValues =>
  counterDelta(newSignalDelta(before), newSignalDelta({ ...before, status: to }));
