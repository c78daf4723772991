import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  Chain,
  DefinitionBody,
  Fail,
  LogLevel,
  StateMachine,
  TaskInput,
  type CfnStateMachine,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import type { AnalysisStage } from '#lib/analysis/analysis.ts';

/** The states of the analysis, in order, and the stage each one asks the worker to run. */
const ANALYSIS_TASKS = [
  { state: 'ContextGathering', stage: 'context-gathering' },
  { state: 'HypothesisGeneration', stage: 'hypothesis-generation' },
  { state: 'ImpactAssessment', stage: 'impact-assessment' },
  { state: 'RemediationPlanning', stage: 'remediation-planning' },
] as const satisfies readonly { state: string; stage: AnalysisStage }[];

const MARK_FAILED_STATE = 'MarkFailed';
const FAILED_STAGE: AnalysisStage = 'failed';

export interface AnalysisWorkflowProps {
  /** `functions/analysis-worker`: receives `{ stage, input }`, returns the next state. */
  worker: IFunction;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Default 15 minutes: four stages that each stay within the worker's timeout, plus retries. */
  timeout?: Duration;
}

/**
 * The analysis state machine: the four stages in order, each handing its output to the next; any
 * failure records the analysis as failed (`MarkFailed`) and fails the execution.
 */
export class AnalysisWorkflow extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: AnalysisWorkflowProps) {
    super(scope, id);
    const invoke = (state: string, stage: AnalysisStage): LambdaInvoke =>
      new LambdaInvoke(this, state, {
        lambdaFunction: props.worker,
        payload: TaskInput.fromObject({ stage, 'input.$': '$' }),
        payloadResponseOnly: true,
        // Lambda's own service and throttling errors are retried by the task itself.
        retryOnServiceExceptions: true,
      });

    const failed = invoke(MARK_FAILED_STATE, FAILED_STAGE).next(
      new Fail(this, 'AnalysisFailed', { error: 'AnalysisFailed', cause: 'A stage of the analysis failed' }),
    );
    const [first, ...rest] = ANALYSIS_TASKS.map(({ state, stage }) =>
      invoke(state, stage)
        // A stage's own error (a read that timed out, a model that did not answer) gets two more tries,
        // 1 s then 2 s later; what still fails goes to MarkFailed with the error as the reason.
        .addRetry({ errors: ['States.ALL'], maxAttempts: 2, interval: Duration.seconds(1), backoffRate: 2 })
        .addCatch(failed, { resultPath: '$.error' }),
    );
    if (!first) throw new Error('the analysis workflow needs at least one stage');
    const definition = rest.reduce((chain, task) => chain.next(task), Chain.start(first));

    // Under /aws/vendedlogs/ the state machine's log delivery needs no resource policy of its own.
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-analysis`,
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromChainable(definition),
      timeout: props.timeout ?? Duration.minutes(15),
      tracingEnabled: true,
      // Execution data is incident content; state transitions alone show where an execution stopped.
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
    });

    const stack = Stack.of(this);
    const workerId = stack.resolve(stack.getLogicalId(props.worker.node.defaultChild as CfnFunction)) as string;
    Validations.of(this.stateMachine.role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Step Functions log delivery (logs:CreateLogDelivery and related) and X-Ray tracing ' +
          '(xray:PutTraceSegments and related) do not support resource-level permissions.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${workerId}.Arn>:*]`,
        reason: 'Lets the tasks invoke versions and aliases of the analysis worker; no other function.',
      },
    );
  }

  /** The raw resource, whose definitionString the local runner resolves and runs. */
  get cfnStateMachine(): CfnStateMachine {
    return this.stateMachine.node.defaultChild as CfnStateMachine;
  }
}
