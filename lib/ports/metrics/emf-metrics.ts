import type { Metrics } from './metrics.ts';

type Unit = 'Count' | 'Milliseconds';

/** CloudWatch takes at most 100 values of one metric in one document. */
const VALUES_PER_DOCUMENT = 100;

interface EmfSettings {
  namespace: string;
  /** The `service` dimension: the stack's name, so two stages in one account stay apart. */
  service: string;
}

/**
 * Metrics as CloudWatch Embedded Metric Format documents on stdout: Lambda's log stream carries them to
 * CloudWatch, which extracts the metrics, so publishing costs no API call and no IAM grant. A value stated
 * more than once in an invocation is kept as a list of values, which CloudWatch counts one by one.
 */
export const createEmfMetrics = ({ namespace, service }: EmfSettings): Metrics => {
  const stored = new Map<string, { unit: Unit; values: number[] }>();
  const add = (name: string, unit: Unit, value: number) => {
    const metric = stored.get(name) ?? { unit, values: [] };
    metric.values.push(value);
    stored.set(name, metric);
  };
  const document = (round: number): string | undefined => {
    const metrics = [...stored].flatMap(([name, { unit, values }]) => {
      const slice = values.slice(round * VALUES_PER_DOCUMENT, (round + 1) * VALUES_PER_DOCUMENT);
      return slice.length === 0 ? [] : [{ name, unit, values: slice }];
    });
    if (metrics.length === 0) return undefined;
    return JSON.stringify({
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: namespace,
            Dimensions: [['service']],
            Metrics: metrics.map(({ name, unit }) => ({ Name: name, Unit: unit })),
          },
        ],
      },
      service,
      ...Object.fromEntries(metrics.map(({ name, values }) => [name, values.length === 1 ? values[0] : values])),
    });
  };
  return {
    count(name, value = 1) {
      add(name, 'Count', value);
    },
    duration(name, ms) {
      add(name, 'Milliseconds', ms);
    },
    flush() {
      for (let round = 0, line = document(0); line; round += 1, line = document(round)) {
        process.stdout.write(`${line}\n`);
      }
      stored.clear();
    },
  };
};
