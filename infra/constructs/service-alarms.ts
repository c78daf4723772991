import { Aws, Duration } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { WorkQueue } from './work-queue.ts';

export interface ServiceAlarmsProps {
  /** The functions no API request waits on: their failures reach no client as a 5xx. */
  functions: readonly IFunction[];
  api: RestApi;
  stateMachine: StateMachine;
  queues: readonly { name: string; queue: WorkQueue }[];
  /** Subscribed to the alarm topic when given. */
  alarmEmail: string | undefined;
}

/** A metric math alarm takes at most 10 metrics, so functions are summed in groups of this size. */
const METRICS_PER_ALARM = 10;
/** A queued message older than this means its worker is failing or falling behind. */
const QUEUE_AGE_LIMIT = Duration.minutes(15);
/** Slower than this at p99 for 15 minutes is worth a look (a PDF export takes a few seconds). */
const API_P99_LIMIT = Duration.seconds(10);

const period = Duration.minutes(5);

/**
 * The service's alarms, on one SNS topic (pager-health.ts adds the pager's own): function errors, API
 * 5xx and latency, failed analyses and old queued messages. CloudWatch bills an alarm by the metrics it
 * watches ($0.10 each a month, the first ten free), whether it fires or not: so the functions behind the
 * API are watched through the API's 5xx (an API function's crash, timeout or throttle, and the
 * authorizer's, is a 5xx the gateway answers), the functions no client waits on (queue workers, the sweeps)
 * through their own errors, summed over up to ten functions an alarm. A throttled queue worker's message waits
 * in its queue (the age alarm sees it), and a sweep that stopped running, throttled or not, is the pager
 * health's alarm (pager-health.ts), as are new dead letters. The README's idle-cost table is computed from the
 * template (test/infra/idle-cost.test.ts).
 */
export class ServiceAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    // Unencrypted at rest: notifications name an alarm and a metric, no incident data; CloudWatch cannot
    // publish to a topic under the AWS-managed SNS key, and a customer-managed key costs a monthly fee.
    this.topic = new Topic(this, 'Topic', { displayName: 'Incident service alarms', enforceSSL: true });
    // A topic policy replaces SNS's default one, which let the account's services publish: without this
    // statement CloudWatch could not deliver a single alarm. Only this account's alarms may.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisAccount',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    for (const { name, queue } of props.queues) {
      this.alarm(`${name}QueueAge`, {
        description: `The oldest message of the ${name} queue has waited over ${QUEUE_AGE_LIMIT.toMinutes()} minutes`,
        metric: queue.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
        threshold: QUEUE_AGE_LIMIT.toSeconds(),
      });
    }
    const names = (functions: readonly IFunction[]) =>
      functions.map((fn) => fn.node.scope?.node.id ?? fn.node.id).join(', ');
    chunk(props.functions, METRICS_PER_ALARM).forEach((functions, index) => {
      this.alarm(`FunctionErrors${index + 1}`, {
        description: `A function failed: ${names(functions)}`,
        metric: sum(functions.map((fn) => fn.metricErrors({ period, statistic: 'Sum' }))),
        threshold: 0,
      });
    });
    this.alarm('Api5xx', {
      description: 'The API answered 5xx',
      metric: props.api.metricServerError({ period, statistic: 'Sum' }),
      threshold: 0,
    });
    this.alarm('ApiLatency', {
      description: `API p99 latency over ${API_P99_LIMIT.toSeconds()} s for 15 minutes`,
      metric: props.api.metricLatency({ period, statistic: 'p99' }),
      threshold: API_P99_LIMIT.toMilliseconds(),
      evaluationPeriods: 3,
    });
    // An aborted execution is someone's doing, not a failure: it is not watched.
    this.alarm('AnalysisFailed', {
      description: 'An incident analysis execution failed or timed out',
      metric: sum([
        props.stateMachine.metricFailed({ period, statistic: 'Sum' }),
        props.stateMachine.metricTimedOut({ period, statistic: 'Sum' }),
      ]),
      threshold: 0,
    });
  }

  private alarm(
    id: string,
    options: { description: string; metric: IMetric; threshold: number; evaluationPeriods?: number },
  ): void {
    this.add(
      new Alarm(this, id, {
        alarmDescription: options.description,
        metric: options.metric,
        threshold: options.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private add(alarm: Alarm): void {
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}

const chunk = <T>(values: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(values.length / size) }, (_value, index) =>
    values.slice(index * size, (index + 1) * size),
  );

/** The sum of the metrics, a missing datapoint counting as zero. */
const sum = (metrics: readonly IMetric[]): IMetric =>
  new MathExpression({
    expression: metrics.map((_metric, index) => `FILL(m${index}, 0)`).join(' + '),
    usingMetrics: Object.fromEntries(metrics.map((metric, index) => [`m${index}`, metric])),
    period,
  });
