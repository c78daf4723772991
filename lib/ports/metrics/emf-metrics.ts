import type { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Metrics } from './metrics.ts';

/**
 * Metrics as CloudWatch Embedded Metric Format documents on stdout: Lambda's log stream carries them to
 * CloudWatch, which extracts the metrics, so publishing costs no API call and no IAM grant.
 */
export const createEmfMetrics = (powertools: PowertoolsMetrics): Metrics => ({
  count(name, value = 1) {
    powertools.addMetric(name, MetricUnit.Count, value);
  },
  duration(name, ms) {
    powertools.addMetric(name, MetricUnit.Milliseconds, ms);
  },
  flush() {
    // Powertools warns on every empty publish, and most requests state no business fact.
    if (powertools.hasStoredMetrics()) powertools.publishStoredMetrics();
  },
});
