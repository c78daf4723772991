import {
  COUNT_METRICS,
  type CountMetric,
  DURATION_METRICS,
  type DurationMetric,
  HEALTH_DURATION_METRICS,
  type Metrics,
} from '#lib/ports/metrics/metrics.ts';

interface DurationSummary {
  count: number;
  sumMs: number;
  maxMs: number;
}

export interface MetricsSnapshot {
  counts: Record<CountMetric, number>;
  durations: Record<DurationMetric, DurationSummary>;
}

export interface LocalMetrics extends Metrics {
  /** Everything counted since the start; durations as summaries, so a long-running server stays small. */
  snapshot(): MetricsSnapshot;
}

/** The local metrics port: totals in memory since the start, read by tests and `GET /_local/metrics`. */
export const createLocalMetrics = (): LocalMetrics => {
  const counts = Object.fromEntries(COUNT_METRICS.map((name) => [name, 0])) as Record<CountMetric, number>;
  const durations = Object.fromEntries(
    [...DURATION_METRICS, ...HEALTH_DURATION_METRICS].map((name) => [name, { count: 0, sumMs: 0, maxMs: 0 }]),
  ) as Record<DurationMetric, DurationSummary>;
  return {
    count(name, value = 1) {
      counts[name] += value;
    },
    duration(name, ms) {
      const summary = durations[name];
      summary.count += 1;
      summary.sumMs += ms;
      summary.maxMs = Math.max(summary.maxMs, ms);
    },
    // Nothing is buffered: the totals are the published state.
    flush() {},
    snapshot() {
      return {
        counts: { ...counts },
        durations: Object.fromEntries(
          Object.entries(durations).map(([name, summary]) => [name, { ...summary }]),
        ) as Record<DurationMetric, DurationSummary>,
      };
    },
  };
};
