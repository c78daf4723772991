import { describe, expect, it } from 'vitest';
import { inspectApp, inspectDefaultApp, PROD_CONTEXT } from './template.ts';

// Locally: test/health/pager-health.test.ts.
describe("the pager's own health, in AWS", () => {
  const prod = inspectApp(PROD_CONTEXT);

  it('alarms when the sweep has not run, missing data breaching', () => {
    const alarm = prod.resources[prod.logicalId(prod.stack.pagerHealth.sweepStopped.node.defaultChild as never)];
    expect(alarm?.Properties).toMatchObject({
      MetricName: 'Invocations',
      Namespace: 'AWS/Lambda',
      Dimensions: [
        { Name: 'FunctionName', Value: { Ref: prod.logicalId(prod.stack.slaSweep.lambda.node.defaultChild as never) } },
      ],
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
    });
  });

  it('turns SNS delivery status logging of SMS on, and alarms on failed SMS, SMS spend and late notifications', () => {
    const json = JSON.stringify(prod.template.toJSON());
    expect(json).toContain('setSMSAttributes');
    expect(json).toContain('DeliveryStatusIAMRole');
    for (const metric of ['NumberOfNotificationsFailed', 'SMSMonthToDateSpentUSD', 'NotificationLag']) {
      prod.template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: metric });
    }
  });

  it('alarms again each time dead letters arrive, and leaves the account SMS setting to prod', () => {
    const expressions = JSON.stringify(prod.template.findResources('AWS::CloudWatch::Alarm'));
    expect(expressions).toContain('DIFF(FILL(q0, REPEAT))');
    const dev = JSON.stringify(inspectDefaultApp().template.toJSON());
    expect(dev).not.toContain('setSMSAttributes');
  });
});
