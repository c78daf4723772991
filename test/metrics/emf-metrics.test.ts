import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { ENV } from '#lib/ports/env.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';

const ENVIRONMENT = { [ENV.metricsNamespace]: 'IncidentService', [ENV.serviceName]: 'IncidentService-test' };

/** What the adapter writes to stdout while `run` runs, as JSON documents (one a line). */
const printed = async (run: () => unknown): Promise<Record<string, any>[]> => {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    write.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the EMF adapter', () => {
  it('prints one EMF document with the namespace, the service dimension, the metrics and their units', async () => {
    const port = metrics.build.metrics!(ENVIRONMENT);
    const [document, ...others] = await printed(() => {
      port.count('SignalsIngested');
      port.count('SignalsIngested', 2);
      port.count('SignalsDeduplicated');
      port.duration('CorrelationLag', 1250);
      port.flush();
    });

    expect(others).toEqual([]);
    const { _aws, ...values } = document!;
    expect(_aws.Timestamp).toEqual(expect.any(Number));
    expect(_aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'IncidentService',
        Dimensions: [['service']],
        Metrics: expect.arrayContaining([
          { Name: 'SignalsIngested', Unit: 'Count' },
          { Name: 'SignalsDeduplicated', Unit: 'Count' },
          { Name: 'CorrelationLag', Unit: 'Milliseconds' },
        ]),
      },
    ]);
    expect(values).toEqual({
      service: 'IncidentService-test',
      SignalsIngested: [1, 2],
      SignalsDeduplicated: 1,
      CorrelationLag: 1250,
    });
  });

  it('prints nothing, not even a warning, for an invocation that counted nothing', async () => {
    const port = metrics.build.metrics!(ENVIRONMENT);
    const warnings = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await printed(() => port.flush())).toEqual([]);
    expect(warnings).not.toHaveBeenCalled();
  });

  it('fails at build without its environment, as a function the stack did not bind would', () => {
    expect(() => metrics.build.metrics!({ [ENV.serviceName]: 'IncidentService-test' })).toThrow(
      'METRICS_NAMESPACE is not set',
    );
  });
});

describe('a queue handler in Lambda', () => {
  const counting: FunctionDeclaration = { name: 'counting-worker', description: 'counts', needs: [metrics] };
  const record = (messageId: string) => ({ messageId, body: '{}' }) as SQSEvent['Records'][number];

  it('publishes what its records counted once, after the batch, failed records included', async () => {
    vi.stubEnv(ENV.metricsNamespace, 'IncidentService');
    vi.stubEnv(ENV.serviceName, 'IncidentService-test');
    const handler = createQueueHandler(counting, async (ports, { messageId }) => {
      ports.metrics.count('IncidentsOpened');
      if (messageId === 'bad') throw new Error('refused');
    });
    const documents = await printed(async () => {
      const result = await handler({ Records: [record('a'), record('bad'), record('c')] });
      expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    });
    const emf = documents.filter((line) => line._aws);
    expect(emf).toHaveLength(1);
    expect(emf[0]).toMatchObject({ service: 'IncidentService-test', IncidentsOpened: [1, 1, 1] });
  });
});
