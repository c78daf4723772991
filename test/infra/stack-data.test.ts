/** The stack's table, queues and analysis state machine, read from the template. */
import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { QUEUE_NAMES } from '#lib/ports/queue/queue.ts';
import { TABLE_INDEXES, TTL_ATTRIBUTE } from '#lib/store/table-schema.ts';
import { ANALYSIS_STAGES } from '#lib/analysis/analysis.ts';
import { analysisDefinition } from '#infra/local/analysis-definition.ts';
import { type inspect, inspectApp, PROD_CONTEXT } from './template.ts';

let view: ReturnType<typeof inspect>;

beforeAll(() => {
  view = inspectApp();
});

describe('table', () => {
  it('is on demand with point-in-time recovery, TTL and the three indexes', () => {
    view.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    view.template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
    // Its name is an output: a point-in-time restore starts from it (README, "Restoring the table").
    const tableId = view.logicalId(view.stack.table.table.node.defaultChild as CfnElement);
    view.template.hasOutput('TableName', { Value: { Ref: tableId } });
  });

  it('is protected and retained in prod only', () => {
    view.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    const prod = inspectApp(PROD_CONTEXT).template;
    prod.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });
});

describe('queues', () => {
  it('has the five work queues, each with an encrypted, TLS-only dead-letter queue', () => {
    view.template.resourceCountIs('AWS::SQS::Queue', 10);
    view.template.allResourcesProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    for (const name of QUEUE_NAMES) {
      const workQueue = view.stack.queues[name];
      const queue = view.resources[view.logicalId(workQueue.queue.node.defaultChild as never)]!;
      const deadLetterId = view.logicalId(workQueue.deadLetterQueue.node.defaultChild as never);
      expect(queue.Properties).toMatchObject({
        VisibilityTimeout: QUEUE_SETTINGS[name].visibilityTimeoutSeconds,
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] },
          maxReceiveCount: QUEUE_SETTINGS[name].maxReceiveCount,
        },
      });
    }
    // New dead letters of all five queues are one alarm, the pager health's (test/health/pager-health.test.ts).
    const denyInsecure = {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    };
    view.template.resourcePropertiesCountIs('AWS::SQS::QueuePolicy', denyInsecure, 10);
  });

  it('drains each queue with its worker, reporting partial batch failures', () => {
    view.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 5);
    for (const [name, worker] of [
      ['ingestion', view.stack.ingestionWorker],
      ['correlation', view.stack.correlationWorker],
      ['correlation-first', view.stack.correlationWorker],
      ['mail', view.stack.mailWorker],
      ['notifications', view.stack.notificationWorker],
    ] as const) {
      view.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: view.logicalId(worker.lambda.node.defaultChild as never) },
        EventSourceArn: {
          'Fn::GetAtt': [view.logicalId(view.stack.queues[name].queue.node.defaultChild as never), 'Arn'],
        },
        BatchSize: QUEUE_SETTINGS[name].batchSize,
        ScalingConfig: { MaximumConcurrency: QUEUE_SETTINGS[name].maxConcurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    // No batching window: a storm's first signal is invoked at once, not held back to fill a batch.
    view.template.allResourcesProperties('AWS::Lambda::EventSourceMapping', {
      MaximumBatchingWindowInSeconds: Match.absent(),
    });
  });

  it('runs the SLA sweep every minute by default', () => {
    view.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [view.logicalId(view.stack.slaSweep.lambda.node.defaultChild as never), 'Arn'] },
        }),
      ],
    });
  });

  it('runs the correlation sweep every minute', () => {
    view.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [view.logicalId(view.stack.correlationSweep.lambda.node.defaultChild as never), 'Arn'] },
        }),
      ],
    });
  });
});

/** The definition with every intrinsic (the worker's ARN) replaced by a placeholder. */
const renderDefinition = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  return join ? join[1].map(renderDefinition).join(join[0]) : 'WORKER_ARN';
};

describe('analysis state machine', () => {
  const definition = () =>
    JSON.parse(renderDefinition(view.stack.resolve(view.stack.workflow.cfnStateMachine.definitionString))) as {
      StartAt: string;
      States: Record<string, Record<string, any>>;
    };

  it('runs the four stages in order on the analysis worker, passing the state along', () => {
    const { StartAt, States } = definition();
    const order: string[] = [];
    for (let name: string | undefined = StartAt; name; name = States[name]?.Next) order.push(name);
    expect(order).toEqual(['ContextGathering', 'HypothesisGeneration', 'ImpactAssessment', 'RemediationPlanning']);
    expect(order.map((name) => States[name]?.Parameters)).toEqual(
      ANALYSIS_STAGES.map((stage) => ({ stage, 'input.$': '$' })),
    );
    expect(States.RemediationPlanning?.End).toBe(true);
    for (const name of [...order, 'MarkFailed']) {
      expect(States[name]).toMatchObject({ Type: 'Task', Resource: 'WORKER_ARN' });
    }
  });

  it('retries any error of a task (Lambda service errors too) twice, 1 s then 2 s later, before the Catch', () => {
    const { States } = definition();
    for (const name of [
      'ContextGathering',
      'HypothesisGeneration',
      'ImpactAssessment',
      'RemediationPlanning',
      'MarkFailed',
    ]) {
      expect(States[name]?.Retry).toEqual([
        {
          ErrorEquals: ['States.ALL'],
          MaxAttempts: 2,
          IntervalSeconds: 1,
          BackoffRate: 2,
        },
      ]);
    }
  });

  // 900 s was shorter than four stages tried three times each within the worker's 2 minutes: a slow but
  // healthy execution timed out, and a timeout runs no Catch.
  it('lets an execution run as long as every try of every task may take', () => {
    const { States } = definition();
    const workerTimeout = view.functionResource(view.stack.analysisWorker).Properties.Timeout as number;
    const worstCase = Object.values(States)
      .filter((state) => state.Type === 'Task')
      .map((state) => {
        const [retry] = state.Retry as { MaxAttempts: number; IntervalSeconds: number; BackoffRate: number }[];
        const waits = Array.from(
          { length: retry!.MaxAttempts },
          (_v, n) => retry!.IntervalSeconds * retry!.BackoffRate ** n,
        );
        return (retry!.MaxAttempts + 1) * workerTimeout + waits.reduce((a, b) => a + b, 0);
      })
      .reduce((a, b) => a + b, 0);
    const timeout = view.template.findResources('AWS::StepFunctions::StateMachine');
    const { DefinitionString } = Object.values(timeout)[0]!.Properties;
    expect(JSON.parse(renderDefinition(view.stack.resolve(DefinitionString))).TimeoutSeconds).toBeGreaterThanOrEqual(
      worstCase,
    );
  });

  it('is the definition the local stack runs, state for state', () => {
    const local = JSON.stringify(analysisDefinition()).replaceAll(/"arn:aws:lambda:[^"]+"/g, '"WORKER_ARN"');
    expect(JSON.parse(local)).toEqual(definition());
  });

  // A timed-out or aborted execution skips MarkFailed, which kept the incident's claim forever.
  it('hands every execution that ends unfinished to the worker, which records it FAILED and releases the claim', () => {
    const workerId = view.logicalId(view.stack.analysisWorker.lambda.node.defaultChild as CfnElement);
    const machineId = view.logicalId(view.stack.workflow.stateMachine.node.defaultChild as CfnElement);
    view.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [{ Ref: machineId }], status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
      },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [workerId, 'Arn'] } })],
    });
  });

  it('sends any failure to MarkFailed, then fails the execution', () => {
    const { States } = definition();
    for (const name of ['ContextGathering', 'HypothesisGeneration', 'ImpactAssessment', 'RemediationPlanning']) {
      expect(States[name]?.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }]);
    }
    expect(States.MarkFailed).toMatchObject({
      Parameters: { stage: 'failed', 'input.$': '$' },
      Next: 'AnalysisFailed',
    });
    expect(States.AnalysisFailed?.Type).toBe('Fail');
  });

  it('logs everything and traces', () => {
    view.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({ Level: 'ALL' }),
      TracingConfiguration: { Enabled: true },
    });
  });
});
