import { expect } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { only } from '../support.ts';

/** What CloudWatch's and EventBridge's real payloads must give. */
export const AWS_EXPECTATIONS: Record<string, (events: NormalizedEvent[]) => void> = {
  'cloudwatch/subscription-confirmation.json': (events) => expect(events).toEqual([]),
  'cloudwatch/alarm-notification.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-cpu-high',
      signal: {
        name: 'checkout-cpu-high',
        type: 'alarm',
        severity: 'MEDIUM',
        serviceId: 'checkout',
        triggeredAt: '2026-11-20T10:15:02.115Z',
        metadata: { metricName: 'CPUUtilization', namespace: 'AWS/ECS', threshold: 80, previousState: 'OK' },
      },
    });
  },
  'cloudwatch/ok-notification.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'resolve',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-cpu-high',
      signal: { type: 'alarm', metadata: { state: 'OK' } },
    });
  },
  'cloudwatch/insufficient-data-notification.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      signal: { type: 'alarm_insufficient_data', severity: 'LOW' },
    });
  },
  'eventbridge/cloudwatch-alarm-state-change.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
      signal: {
        source: 'eventbridge',
        name: 'ServerCpuTooHigh',
        type: 'alarm',
        triggeredAt: '2019-10-02T17:04:40.989Z',
        metadata: {
          metricName: 'CPUUtilization',
          namespace: 'AWS/EC2',
          dimensions: { InstanceId: 'i-12345678901234567' },
          threshold: 50,
          previousState: 'OK',
        },
      },
    });
  },
  'eventbridge/health-issue.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: expect.stringMatching(/^arn:aws:health:af-south-1::event\/EC2\//),
      signal: {
        type: 'health_issue',
        severity: 'HIGH',
        serviceId: 'checkout',
        triggeredAt: '2023-01-27T06:02:51.000Z',
        metadata: { awsService: 'EC2', category: 'issue', statusCode: 'open' },
      },
    });
  },
  'eventbridge/guardduty-finding.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      fingerprint: '16afba5c5c43e07c9e3e5e2e544e95df',
      signal: { type: 'guardduty_finding', severity: 'HIGH', serviceId: 'checkout', value: 8 },
    });
  },
  'eventbridge/codedeploy-success.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      signal: { type: 'deployment', severity: 'LOW', serviceId: 'checkout' },
      change: {
        changeKey: 'aws_codedeploy-d-123456789',
        provider: 'aws_codedeploy',
        status: 'SUCCEEDED',
        repository: 'checkout',
        environment: 'production',
        occurredAt: '2016-06-30T22:06:31.000Z',
      },
    });
  },
  'eventbridge/codepipeline-failed.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'trigger',
      signal: { type: 'deployment_failure', severity: 'MEDIUM', serviceId: 'checkout-release' },
      change: {
        changeKey: 'aws_codepipeline-12345678-1234-5678-abcd-12345678abcd',
        status: 'FAILED',
        repository: 'checkout-release',
      },
    });
  },
  'eventbridge/ecs-deployment-completed.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      change: {
        changeKey: 'aws_ecs-ecs-svc/123',
        status: 'SUCCEEDED',
        repository: 'servicetest',
        environment: 'default',
        updatedAt: '2020-05-23T11:11:11.000Z',
      },
    });
  },
  'eventbridge/ec2-instance-state-change.json': (events) => {
    expect(only(events)).toMatchObject({
      action: 'record',
      fingerprint:
        'aws.ec2|EC2 Instance State-change Notification|arn:aws:ec2:us-east-1:123456789012:instance/i-abcd1111',
      signal: { type: 'event', severity: 'LOW', metadata: { detail: { state: 'pending' } } },
    });
  },
};
