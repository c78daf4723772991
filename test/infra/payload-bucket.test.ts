import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { QUEUED_OBJECT_DAYS, TRANSIENT_TAG } from '#lib/ports/object-store/object-store.ts';
import { MAX_MESSAGE_BYTES, QUEUE_NAMES } from '#lib/ports/queue/queue.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { actionsOf, type inspect, inspectApp, PROD_CONTEXT } from './template.ts';

let view: ReturnType<typeof inspect>;
let bucketId: string;

beforeAll(() => {
  view = inspectApp();
  bucketId = view.logicalId(view.stack.payloads.bucket.node.defaultChild as CfnElement);
});

const allFunctions = (): [string, ServiceFunction][] => [
  ...view.stack.groupFunctions,
  ['analysis-worker', view.stack.analysisWorker],
  ['ingestion-worker', view.stack.ingestionWorker],
  ['correlation-worker', view.stack.correlationWorker],
  ['correlation-sweep', view.stack.correlationSweep],
];

const s3Actions = (fn: ServiceFunction): string[] =>
  view
    .statementsOf(fn)
    .flatMap(actionsOf)
    .filter((action) => action.startsWith('s3:'))
    .sort();

describe('payload bucket', () => {
  it('is private, encrypted, TLS-only, and expires only the transient queued-event objects', () => {
    view.template.resourceCountIs('AWS::S3::Bucket', 1);
    view.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Status: 'Enabled',
            ExpirationInDays: QUEUED_OBJECT_DAYS,
            TagFilters: [{ Key: TRANSIENT_TAG.key, Value: TRANSIENT_TAG.value }],
          }),
        ]),
      },
    });
    // Signal metadata is kept as long as its signal, which never expires: no rule without a tag filter expires objects.
    const rules = Object.values(view.resources).find((resource) => resource.Type === 'AWS::S3::Bucket')?.Properties
      .LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules.filter((rule) => rule.ExpirationInDays !== undefined && rule.TagFilters === undefined)).toEqual([]);
    view.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('is retained in prod', () => {
    inspectApp(PROD_CONTEXT).template.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
  });

  it('is named to exactly the functions that store or read large payloads', () => {
    const named = allFunctions()
      .filter(
        ([, fn]) => view.functionResource(fn).Properties.Environment?.Variables?.PAYLOAD_BUCKET_NAME !== undefined,
      )
      .map(([name]) => name)
      .sort();
    expect(named).toEqual(['ingestion', 'ingestion-worker', 'signals']);
    for (const [, fn] of allFunctions().filter(([name]) => named.includes(name))) {
      expect(view.functionResource(fn).Properties.Environment.Variables.PAYLOAD_BUCKET_NAME).toEqual({ Ref: bucketId });
    }
  });

  it('grants object reads to readers and object writes to writers, on its objects only', () => {
    const grants = Object.fromEntries(allFunctions().map(([name, fn]) => [name, s3Actions(fn)]));
    const write = ['s3:PutObject', 's3:PutObjectTagging'];
    expect(grants).toEqual(
      Object.fromEntries(
        allFunctions().map(([name]) => [
          name,
          { ingestion: write, signals: ['s3:GetObject', ...write], 'ingestion-worker': ['s3:GetObject', ...write] }[
            name
          ] ?? [],
        ]),
      ),
    );
    for (const [, fn] of allFunctions()) {
      for (const statement of view
        .statementsOf(fn)
        .filter((entry) => actionsOf(entry).some((action) => action.startsWith('s3:')))) {
        expect(statement.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] });
      }
    }
  });

  it('caps queue messages at the size the SQS adapter batches to', () => {
    const workQueues = Object.values(view.resources).filter(
      (resource) => resource.Type === 'AWS::SQS::Queue' && resource.Properties.RedrivePolicy !== undefined,
    );
    expect(workQueues).toHaveLength(QUEUE_NAMES.length);
    for (const queue of workQueues) expect(queue.Properties.MaximumMessageSize).toBe(MAX_MESSAGE_BYTES);
  });
});
