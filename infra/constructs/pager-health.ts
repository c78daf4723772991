import { Arn, ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '#lib/ports/metrics/metrics.ts';
import { NOTIFICATION_LATE_MINUTES, SMS_SPEND_ALARM_SHARE } from '#lib/ports/metrics/pager-health.ts';

export interface PagerHealthProps {
  /** The service's alarm topic: every alarm here notifies it. */
  topic: ITopic;
  /** The SLA sweep, which escalates and raises missed heartbeats, and how often its schedule runs it. */
  sweep: IFunction;
  sweepMinutes: number;
  deadLetterQueues: readonly { name: string; queue: IQueue }[];
  /** The `service` dimension of the business metrics (the stack's name). */
  serviceName: string;
  /** The account's monthly SMS spend limit in USD (SNS text messaging preferences). */
  smsSpendLimitUsd: number;
  /** Turn on SNS delivery status logging of SMS: an account-wide setting, so one stage of an account should. */
  logSmsDelivery: boolean;
}

/**
 * Whether the pager itself still pages (docs/heartbeats.md, "The pager's own health"): five alarms over
 * eight metrics, about $0.80 a month, on the service's alarm topic.
 *
 * - **SweepStopped**: the sweep's invocations, missing data breaching: a schedule that stopped firing
 *   (disabled rule, deleted target, throttled account) sends no datapoint at all, which every other alarm
 *   would read as fine. A sweep that runs and fails is the function-errors alarm's.
 * - **NotificationsLate**: the notification worker's `NotificationLag` (an attempt's time after its
 *   event), when one was sent, or failed, more than `NOTIFICATION_LATE_MINUTES` after its event.
 * - **SmsDeliveryFailed** and **SmsSpendNearLimit**: a published SMS is not a delivered one; SNS counts the
 *   carrier's answer only with delivery status logging on, which this turns on (`SetSMSAttributes`).
 * - **DeadLettersArriving**: the rise of any dead-letter queue's depth; it returns to OK when the depth
 *   stops growing, so a second failure days after the first notifies again, which the per-queue alarm,
 *   in ALARM as long as any message waits, never does.
 */
export class PagerHealth extends Construct {
  readonly alarms: Alarm[] = [];
  readonly sweepStopped: Alarm;
  private readonly topic: ITopic;

  constructor(scope: Construct, id: string, props: PagerHealthProps) {
    super(scope, id);
    this.topic = props.topic;
    const sweepPeriod = Duration.minutes(Math.max(5, 2 * props.sweepMinutes));
    this.sweepStopped = this.alarm('SweepStopped', {
      alarmDescription: `The SLA sweep (escalations, heartbeats) has not run for ${sweepPeriod.toMinutes()} minutes`,
      metric: props.sweep.metricInvocations({ period: sweepPeriod, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
    });
    this.alarm('NotificationsLate', {
      alarmDescription: `A notification was still unsent ${NOTIFICATION_LATE_MINUTES} minutes after its event`,
      metric: new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'NotificationLag',
        dimensionsMap: { service: props.serviceName },
        statistic: 'Maximum',
        period: Duration.minutes(5),
      }),
      threshold: NOTIFICATION_LATE_MINUTES * 60_000,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('SmsDeliveryFailed', {
      alarmDescription: 'A carrier refused or lost an SMS page (SNS delivery status)',
      // SMS published to a phone number, not a topic, is counted under this dimension and value.
      metric: new Metric({
        namespace: 'AWS/SNS',
        metricName: 'NumberOfNotificationsFailed',
        dimensionsMap: { PhoneNumber: 'PhoneNumber' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('SmsSpendNearLimit', {
      alarmDescription: `SMS spend this month passed ${SMS_SPEND_ALARM_SHARE * 100}% of the account's $${props.smsSpendLimitUsd} limit: SNS stops sending SMS at the limit`,
      metric: new Metric({
        namespace: 'AWS/SNS',
        metricName: 'SMSMonthToDateSpentUSD',
        statistic: 'Maximum',
        period: Duration.hours(1),
      }),
      threshold: props.smsSpendLimitUsd * SMS_SPEND_ALARM_SHARE,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm('DeadLettersArriving', {
      alarmDescription: `New messages reached a dead-letter queue (${props.deadLetterQueues.map(({ name }) => name).join(', ')})`,
      metric: deadLetterRise(props.deadLetterQueues.map(({ queue }) => queue)),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.logSmsDelivery) this.logSmsDelivery();
  }

  private alarm(id: string, props: Omit<AlarmProps, 'evaluationPeriods'>): Alarm {
    const alarm = new Alarm(this, id, { ...props, evaluationPeriods: 1 });
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
    return alarm;
  }

  /**
   * SNS delivery status logging for SMS: an account setting (`SetSMSAttributes`), so a custom resource
   * sets it, with a role SNS assumes to write the `sns/<region>/<account>/DirectPublishToPhoneNumber[/Failure]`
   * log groups. Every SMS is logged (100% of successes too), since pages are few and each one matters.
   * Left as it is when the stack is deleted: another stack of the account may rely on it.
   */
  private logSmsDelivery(): void {
    const stack = Stack.of(this);
    const logGroups = Arn.format(
      {
        service: 'logs',
        resource: 'log-group',
        resourceName: `sns/${stack.region}/${stack.account}/DirectPublishToPhoneNumber*`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      },
      stack,
    );
    const role = new Role(this, 'SmsDeliveryStatusRole', {
      assumedBy: new ServicePrincipal('sns.amazonaws.com'),
      description: 'SNS writes the delivery status of SMS pages to CloudWatch Logs',
    });
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:PutRetentionPolicy'],
        resources: [logGroups, `${logGroups}:*`],
      }),
    );
    const groupsReason =
      "SNS names the delivery status log groups and streams itself (sns/<region>/<account>/DirectPublishToPhoneNumber and its /Failure group, a stream per day): the grant is those groups' log actions only.";
    const nagGroups =
      'arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:sns/<AWS::Region>/<AWS::AccountId>/DirectPublishToPhoneNumber*';
    for (const resource of [nagGroups, `${nagGroups}:*`]) {
      Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason: groupsReason });
    }
    const setting = new AwsCustomResource(this, 'SmsDeliveryStatusLogging', {
      onUpdate: {
        service: 'SNS',
        action: 'setSMSAttributes',
        parameters: {
          attributes: { DeliveryStatusIAMRole: role.roleArn, DeliveryStatusSuccessSamplingRate: '100' },
        },
        physicalResourceId: PhysicalResourceId.of('sms-delivery-status-logging'),
      },
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({ actions: ['sns:SetSMSAttributes'], resources: ['*'] }),
        new PolicyStatement({ actions: ['iam:PassRole'], resources: [role.roleArn] }),
      ]),
      installLatestAwsSdk: false,
      // Unnamed, so a group kept from a deleted stack never blocks the next deploy; it logs one call a deploy.
      logGroup: new LogGroup(this, 'SmsDeliveryStatusLoggingLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    Validations.of(setting).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'SetSMSAttributes is an account-level action: IAM has no resource to name for it, and it is the only action on *.',
    });
    // The custom resource's provider, one function per stack that CDK creates, runs a single SDK call on deploy.
    const provider = stack.node.tryFindChild(AWS_CUSTOM_RESOURCE_PROVIDER);
    if (provider) {
      Validations.of(provider).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's AwsCustomResource provider, which runs one SDK call at deploy time, logs through the basic execution role CDK gives it; it reads and writes no data.",
      });
    }
  }
}

/** The id CDK gives the provider function every AwsCustomResource of a stack shares. */
const AWS_CUSTOM_RESOURCE_PROVIDER = 'AWS679f53fac002430cb0da5b7982bd2287';

/**
 * The sum of the rises of the queues' depths: a fall (messages redriven or deleted) counts as none, and a
 * gap repeats the last depth so it reads as no rise.
 */
const deadLetterRise = (queues: readonly IQueue[]): IMetric =>
  new MathExpression({
    expression: queues
      .map((_queue, index) => `IF(DIFF(FILL(q${index}, REPEAT)) > 0, DIFF(FILL(q${index}, REPEAT)), 0)`)
      .join(' + '),
    usingMetrics: Object.fromEntries(
      queues.map((queue, index) => [
        `q${index}`,
        queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      ]),
    ),
    period: Duration.minutes(5),
  });
