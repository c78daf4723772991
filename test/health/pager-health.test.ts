import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalHealth } from '#infra/local/local-health.ts';
import { inspectApp } from '../infra/template.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const MINUTE = 60_000;

describe("the pager's own health, locally", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(async () => {
    await client?.stack.stop();
  });

  it('says the sweep stopped once it missed two intervals, and no longer once it ran', async () => {
    let now = new Date('2026-03-01T10:00:00Z');
    const health = createLocalHealth({
      sqs: client.stack.queues,
      metrics: client.stack.metrics,
      clock: { now: () => now },
      sweepIntervalMs: MINUTE,
    });
    expect((await health.snapshot()).sweep).toEqual({ intervalSeconds: 60, lastRunAt: null, stopped: false });
    now = new Date(now.getTime() + 5 * MINUTE + 1);
    expect((await health.snapshot()).sweep.stopped).toBe(true);
    health.sweepRan();
    expect((await health.snapshot()).sweep).toEqual({
      intervalSeconds: 60,
      lastRunAt: now.toISOString(),
      stopped: false,
    });
  });

  it('serves the health figures with the metrics', async () => {
    const reply = await client.request('GET', '/_local/metrics');
    expect(reply.status).toBe(200);
    expect(reply.body.data.health).toMatchObject({
      sweep: { intervalSeconds: 60, stopped: false },
      notifications: { lateAfterMinutes: 10, late: false },
      deadLetters: { ingestion: 0, correlation: 0, mail: 0, notifications: 0 },
    });
  });
});

describe("the pager's own health, in AWS", () => {
  const prod = inspectApp({ stage: 'prod' });

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
    const dev = JSON.stringify(inspectApp().template.toJSON());
    expect(dev).not.toContain('setSMSAttributes');
  });
});
