/** The CloudWatch namespace of the service's business metrics (`METRICS_NAMESPACE`). */
export const METRICS_NAMESPACE = 'IncidentService';

/** Facts counted once each, by the code that makes them happen. */
export const COUNT_METRICS = [
  'SignalsIngested',
  'SignalsDeduplicated',
  'IncidentsOpened',
  'IncidentsResolved',
] as const;
/** Durations in milliseconds. */
export const DURATION_METRICS = ['CorrelationLag'] as const;
/**
 * Durations that tell whether the pager still pages (docs/heartbeats.md): alarmed on, not charted
 * (infra/constructs/pager-health.ts). `NotificationLag`: an attempt's time after its notification's event.
 */
export const HEALTH_DURATION_METRICS = ['NotificationLag'] as const;

export type CountMetric = (typeof COUNT_METRICS)[number];
export type DurationMetric = (typeof DURATION_METRICS)[number] | (typeof HEALTH_DURATION_METRICS)[number];

/**
 * Business metrics. Values are buffered and published at the end of the invocation (`flush`), which the
 * group and queue handlers do, so a service only states the fact.
 */
export interface Metrics {
  count(name: CountMetric, value?: number): void;
  duration(name: DurationMetric, ms: number): void;
  /** Publishes what was buffered; nothing when nothing was. */
  flush(): void;
}
