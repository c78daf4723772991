import { App, SecretValue, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { describe, expect, it } from 'vitest';
import { IncidentServiceAwsFeeds } from '#infra/team/incident-service-aws-feeds.ts';

const BASE = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod';

/** A team's own app, adding the construct as docs/ingestion.md shows. */
const teamTemplate = (): Template => {
  const stack = new Stack(new App(), 'TeamStack', { env: { account: '123456789012', region: 'eu-west-1' } });
  const alarm = new Alarm(stack, 'CheckoutLatency', {
    alarmName: 'checkout/high-latency',
    metric: new Metric({ namespace: 'Checkout', metricName: 'Latency', dimensionsMap: { Service: 'checkout' } }),
    threshold: 500,
    evaluationPeriods: 3,
  });
  new IncidentServiceAwsFeeds(stack, 'IncidentService', {
    apiBaseUrl: `${BASE}/`,
    apiKey: SecretValue.secretsManager('incident-service/ingestion-key'),
    alarms: [alarm],
  });
  return Template.fromStack(stack);
};

describe('the AWS feeds construct for a team app', () => {
  const template = teamTemplate();

  it('subscribes the service to the alarm topic over HTTPS, the key from the secret in the URL, envelopes kept', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'https',
      Endpoint: Match.stringLikeRegexp(
        `^${BASE}/api/v1/ingestion/cloudwatch\\?apiKey=\\{\\{resolve:secretsmanager:incident-service/ingestion-key`,
      ),
      RawMessageDelivery: false,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue() },
    });
  });

  it('sends the alarm’s ALARM, OK and INSUFFICIENT_DATA to the topic', () => {
    const [alarm] = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    const topicRef = { Ref: Object.keys(template.findResources('AWS::SNS::Topic'))[0] };
    expect(alarm?.Properties).toMatchObject({
      AlarmActions: [topicRef],
      OKActions: [topicRef],
      InsufficientDataActions: [topicRef],
    });
  });

  it('posts the mapped events through an API destination whose connection sends X-API-Key', () => {
    template.hasResourceProperties('AWS::Events::Connection', {
      AuthorizationType: 'API_KEY',
      AuthParameters: {
        ApiKeyAuthParameters: {
          ApiKeyName: 'X-API-Key',
          ApiKeyValue: Match.stringLikeRegexp('resolve:secretsmanager:incident-service/ingestion-key'),
        },
      },
    });
    template.hasResourceProperties('AWS::Events::ApiDestination', {
      InvocationEndpoint: `${BASE}/api/v1/ingestion/eventbridge`,
      HttpMethod: 'POST',
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: Match.arrayWith(['aws.cloudwatch', 'aws.health', 'aws.guardduty', 'aws.codedeploy']),
        'detail-type': Match.arrayWith([
          'CodeDeploy Deployment State-change Notification',
          'ECS Deployment State Change',
        ]),
      },
      Targets: [
        Match.objectLike({
          DeadLetterConfig: { Arn: Match.anyValue() },
          RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 },
        }),
      ],
    });
  });
});
