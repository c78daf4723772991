import { Duration, type SecretValue } from 'aws-cdk-lib';
import type { AlarmBase } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ApiDestination, Authorization, Connection, type EventPattern, HttpMethod, Rule } from 'aws-cdk-lib/aws-events';
import { ApiDestination as ApiDestinationTarget } from 'aws-cdk-lib/aws-events-targets';
import { Subscription, SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * What `/api/v1/ingestion/eventbridge` maps (docs/ingestion.md, "EventBridge"); any other event a rule sends
 * is kept as a LOW record, so a team may widen the pattern.
 */
const MAPPED_AWS_EVENTS: EventPattern = {
  source: ['aws.cloudwatch', 'aws.health', 'aws.guardduty', 'aws.codedeploy', 'aws.codepipeline', 'aws.ecs'],
  detailType: [
    'CloudWatch Alarm State Change',
    'AWS Health Event',
    'GuardDuty Finding',
    'CodeDeploy Deployment State-change Notification',
    'CodePipeline Pipeline Execution State Change',
    'ECS Deployment State Change',
  ],
};

export interface IncidentServiceAwsFeedsProps {
  /** The service's API address: `https://<api-id>.execute-api.<region>.amazonaws.com/<stage>`, or its custom domain. */
  apiBaseUrl: string;
  /**
   * An API key with the `ingestion:write` scope, from a secret (`SecretValue.secretsManager(...)`): the
   * template then holds a reference, not the key. SNS cannot send headers, so the subscription's URL carries it.
   */
  apiKey: SecretValue;
  /** The events the rule forwards; those the service maps by default. */
  eventPattern?: EventPattern;
  /** Alarms whose ALARM, OK and INSUFFICIENT_DATA actions publish to the topic. */
  alarms?: readonly AlarmBase[];
}

/**
 * The two AWS feeds of the incident service, for a team's own CDK app (docs/ingestion.md, "AWS"): an SNS topic
 * for CloudWatch alarm actions with the service's HTTPS subscription, and an EventBridge rule posting to the
 * service through an API destination whose connection sends the key as `X-API-Key`. What the service could not
 * take after the retries lands in a dead-letter queue apiece, so no alarm or deploy is dropped unseen.
 */
export class IncidentServiceAwsFeeds extends Construct {
  /** Point alarm actions here (or pass `alarms`). */
  readonly topic: Topic;
  readonly rule: Rule;
  /** Messages SNS could not deliver, and events the API destination could not: look here when the service was down. */
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: IncidentServiceAwsFeedsProps) {
    super(scope, id);
    const base = props.apiBaseUrl.replace(/\/+$/, '');
    this.deadLetters = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    this.topic = new Topic(this, 'Alarms', { enforceSSL: true });
    new Subscription(this, 'ServiceSubscription', {
      topic: this.topic,
      protocol: SubscriptionProtocol.HTTPS,
      endpoint: `${base}/api/v1/ingestion/cloudwatch?apiKey=${props.apiKey.unsafeUnwrap()}`,
      // The service verifies SNS's signature over the message envelope, which raw delivery would strip.
      rawMessageDelivery: false,
      deadLetterQueue: this.deadLetters,
    });
    for (const alarm of props.alarms ?? []) {
      const action = new SnsAction(this.topic);
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      alarm.addInsufficientDataAction(action);
    }

    const connection = new Connection(this, 'Connection', {
      description: 'The incident service ingestion key, sent as X-API-Key',
      authorization: Authorization.apiKey('X-API-Key', props.apiKey),
    });
    const destination = new ApiDestination(this, 'Destination', {
      connection,
      endpoint: `${base}/api/v1/ingestion/eventbridge`,
      httpMethod: HttpMethod.POST,
      // Under the service's per-key limit (`apikey`, 100 a minute by default): a burst waits here, not in a 429.
      rateLimitPerSecond: 1,
    });
    this.rule = new Rule(this, 'Rule', {
      description: 'AWS alarms, health events, findings and deploys to the incident service',
      eventPattern: props.eventPattern ?? MAPPED_AWS_EVENTS,
      targets: [
        new ApiDestinationTarget(destination, {
          deadLetterQueue: this.deadLetters,
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
        }),
      ],
    });
  }
}
