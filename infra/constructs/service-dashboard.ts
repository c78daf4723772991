import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, type IMetric, LegendPosition, Metric, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { type CountMetric, type DurationMetric, METRICS_NAMESPACE } from '#lib/ports/metrics/metrics.ts';
import type { WorkQueue } from './work-queue.ts';

export interface ServiceDashboardProps {
  /** The `service` dimension the functions' EMF documents carry (`SERVICE_NAME`). */
  serviceName: string;
  functions: readonly { name: string; fn: IFunction }[];
  api: RestApi;
  queues: readonly { name: string; queue: WorkQueue }[];
  stateMachine: StateMachine;
}

const period = Duration.minutes(5);
const WIDTH = 24;
/** Graphs per row: wide enough to read a legend of a few lines. */
const PER_ROW = 3;

const graph = (title: string, left: IMetric[], width = WIDTH / PER_ROW): GraphWidget =>
  new GraphWidget({
    title,
    left,
    width,
    height: 6,
    legendPosition: left.length > 6 ? LegendPosition.RIGHT : LegendPosition.BOTTOM,
  });

/**
 * One CloudWatch dashboard of the stage: the business metrics the services publish as EMF, then the
 * service's own: API requests, errors and latency; each function's errors, throttles and duration; the
 * queues' depth, age and dead letters; failed analyses. A dashboard costs $3 a month beyond the
 * account's first three.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const business = (
      metricName: CountMetric | DurationMetric,
      statistic: string,
      label: string = metricName,
    ): Metric =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: props.serviceName },
        statistic,
        label,
        period,
      });
    const perFunction = (metric: (fn: IFunction) => Metric): IMetric[] =>
      props.functions.map(({ name, fn }) => metric(fn).with({ label: name }));
    const perQueue = (metric: (queue: WorkQueue) => Metric): IMetric[] =>
      props.queues.map(({ name, queue }) => metric(queue).with({ label: name }));
    const sum = { period, statistic: 'Sum' };
    const max = { period, statistic: 'Maximum' };

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: Stack.of(this).stackName,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(heading('Business', 'Published by the functions as EMF, per 5 minutes'));
    this.dashboard.addWidgets(
      graph('Signals', [business('SignalsIngested', 'Sum'), business('SignalsDeduplicated', 'Sum')]),
      graph('Incidents', [business('IncidentsOpened', 'Sum'), business('IncidentsResolved', 'Sum')]),
      graph('Correlation lag (ms)', [
        business('CorrelationLag', 'p50', 'p50'),
        business('CorrelationLag', 'p99', 'p99'),
        business('CorrelationLag', 'Maximum', 'max'),
      ]),
    );
    this.dashboard.addWidgets(heading('API'));
    this.dashboard.addWidgets(
      graph('Requests', [props.api.metricCount(sum)]),
      graph('Errors', [
        props.api.metricClientError({ ...sum, label: '4xx' }),
        props.api.metricServerError({ ...sum, label: '5xx' }),
      ]),
      graph('Latency (ms)', [
        props.api.metricLatency({ period, statistic: 'p50', label: 'p50' }),
        props.api.metricLatency({ period, statistic: 'p99', label: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(heading('Functions'));
    this.dashboard.addWidgets(
      graph(
        'Errors',
        perFunction((fn) => fn.metricErrors(sum)),
      ),
      graph(
        'Throttles',
        perFunction((fn) => fn.metricThrottles(sum)),
      ),
      graph(
        'Duration p99 (ms)',
        perFunction((fn) => fn.metricDuration({ period, statistic: 'p99' })),
      ),
    );
    this.dashboard.addWidgets(heading('Queues and workflow'));
    this.dashboard.addWidgets(
      graph(
        'Queue depth',
        perQueue((queue) => queue.queue.metricApproximateNumberOfMessagesVisible(max)),
        WIDTH / 4,
      ),
      graph(
        'Oldest message (s)',
        perQueue((queue) => queue.queue.metricApproximateAgeOfOldestMessage(max)),
        WIDTH / 4,
      ),
      graph(
        'Dead-letter queue depth',
        perQueue((queue) => queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible(max)),
        WIDTH / 4,
      ),
      graph('Analyses failed', [props.stateMachine.metricFailed(sum)], WIDTH / 4),
    );
  }
}

const heading = (title: string, note?: string): TextWidget =>
  new TextWidget({ markdown: note ? `## ${title}\n${note}` : `## ${title}`, width: WIDTH, height: note ? 2 : 1 });
