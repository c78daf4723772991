import { defineSender } from '../sender.ts';

/** Prometheus Alertmanager notifications (docs/ingestion.md, "Prometheus Alertmanager"); it gives no delivery id. */
export const metricsAlerts = defineSender({
  name: 'metrics-alerts',
  route: { summary: 'Ingest a metrics-alerting notification' },
  normalizer: async () => (await import('./normalize.ts')).normalizeMetricsAlerts,
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
});
