import { beforeAll, describe, expect, it } from 'vitest';
import { COUNT_METRICS, DURATION_METRICS, METRICS_NAMESPACE } from '#lib/ports/metrics/metrics.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { type inspect, inspectApp } from './template.ts';

let view: ReturnType<typeof inspect>;

beforeAll(() => {
  view = inspectApp({ dashboard: true });
});

const allFunctions = (): [string, ServiceFunction][] => [
  ...view.stack.groupFunctions,
  ['analysis-worker', view.stack.analysisWorker],
  ['ingestion-worker', view.stack.ingestionWorker],
  ['correlation-worker', view.stack.correlationWorker],
  ['correlation-sweep', view.stack.correlationSweep],
];
const envOf = (fn: ServiceFunction): Record<string, unknown> =>
  view.functionResource(fn).Properties.Environment?.Variables ?? {};

/** The dashboard's body with the template's references resolved to their logical ids, as one string. */
const dashboardBody = (): string => {
  const dashboards = Object.values(view.resources).filter(({ Type }) => Type === 'AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  return JSON.stringify(dashboards[0]?.Properties.DashboardBody);
};

describe('business metrics', () => {
  it('names the namespace and the stack as service for exactly the functions that emit', () => {
    const emitting = allFunctions()
      .filter(([, fn]) => envOf(fn).METRICS_NAMESPACE === METRICS_NAMESPACE)
      .map(([name]) => name)
      .sort();
    // integrations: a chat button's acknowledge counts as the incidents routes' does (issue 46).
    expect(emitting).toEqual([
      'correlation-worker',
      'incidents',
      'ingestion',
      'ingestion-worker',
      'integrations',
      'signals',
    ]);
    for (const [name, fn] of allFunctions()) {
      expect(envOf(fn).SERVICE_NAME, name).toBe(emitting.includes(name) ? view.stack.stackName : undefined);
    }
  });

  it('grants no CloudWatch API: EMF goes through the log stream', () => {
    for (const [name, fn] of allFunctions()) {
      expect(
        view.actionsOfFunction(fn).filter((action) => action.startsWith('cloudwatch:')),
        name,
      ).toEqual([]);
    }
  });
});

describe('dashboard', () => {
  it('graphs every business metric from the namespace, under the stack as service', () => {
    const body = dashboardBody();
    expect(body).toContain(`\\"${METRICS_NAMESPACE}\\"`);
    for (const name of [...COUNT_METRICS, ...DURATION_METRICS]) expect(body).toContain(`\\"${name}\\"`);
    expect(body).toContain(`\\"service\\",\\"${view.stack.stackName}\\"`);
  });

  it('graphs the API, every function, the queues with their dead letters and the failed analyses', () => {
    const body = dashboardBody();
    for (const metric of ['Count', '4XXError', '5XXError', 'Latency']) expect(body).toContain(`\\"${metric}\\"`);
    for (const metric of ['Errors', 'Throttles', 'Duration']) expect(body).toContain(`\\"${metric}\\"`);
    for (const [name, fn] of allFunctions()) {
      expect(body, name).toContain(view.logicalId(fn.lambda.node.defaultChild as never));
    }
    for (const metric of ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage']) {
      expect(body).toContain(`\\"${metric}\\"`);
    }
    for (const queue of Object.values(view.stack.queues)) {
      expect(body).toContain(view.logicalId(queue.queue.node.defaultChild as never));
      expect(body).toContain(view.logicalId(queue.deadLetterQueue.node.defaultChild as never));
    }
    expect(body).toContain('\\"ExecutionsFailed\\"');
    expect(body).toContain(view.logicalId(view.stack.workflow.stateMachine.node.defaultChild as never));
  });
});
