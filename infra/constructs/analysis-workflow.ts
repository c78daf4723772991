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
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { stackInstance } from './stack-instance.ts';
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

/** Every task's retries: two more tries, 1 s then 2 s later, for any error (Lambda's own service errors too). */
const RETRY = { errors: ['States.ALL'], maxAttempts: 2, interval: Duration.seconds(1), backoffRate: 2 };
/** What the retries add to a task's time beyond its tries: the waits between them. */
const RETRY_WAITS_SECONDS = 1 + 2;
/** Room for Step Functions' own transitions and Lambda's cold starts on top of the tasks' worst case. */
const MARGIN_SECONDS = 60;

/**
 * The longest an execution can run when every try of every task runs out the worker's timeout: each of the
 * four stages and MarkFailed tried three times. Any shorter and a slow but healthy execution times out.
 */
const analysisTimeout = (workerTimeout: Duration): Duration => {
  const task = (1 + RETRY.maxAttempts) * workerTimeout.toSeconds() + RETRY_WAITS_SECONDS;
  return Duration.seconds((ANALYSIS_TASKS.length + 1) * task + MARGIN_SECONDS);
};

/** The execution statuses after which an analysis may still hold its incident's claim. */
const UNFINISHED_EXECUTION_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

export interface AnalysisWorkflowProps {
  /** `functions/analysis-worker`: receives `{ stage, input }`, returns the next state. */
  worker: IFunction;
  /** The worker's timeout, which bounds each try of each task. */
  workerTimeout: Duration;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** X-Ray tracing, with the API stage and the functions. */
  tracing: boolean;
}

/**
 * The analysis state machine: the four stages in order, each handing its output to the next; any
 * failure records the analysis as failed (`MarkFailed`) and fails the execution. A timed-out or aborted
 * execution runs no Catch, so a rule hands every unfinished end (and a MarkFailed that failed itself) to the
 * worker, which records FAILED and releases the incident's claim as MarkFailed would; for an execution
 * that went through MarkFailed it changes nothing.
 */
export class AnalysisWorkflow extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, props: AnalysisWorkflowProps) {
    super(scope, id);
    const invoke = (state: string, stage: AnalysisStage): LambdaInvoke => {
      const task = new LambdaInvoke(this, state, {
        lambdaFunction: props.worker,
        payload: TaskInput.fromObject({ stage, 'input.$': '$' }),
        payloadResponseOnly: true,
        // RETRY covers Lambda's service and throttling errors; a second retrier would multiply the worst case.
        retryOnServiceExceptions: false,
      });
      task.addRetry(RETRY);
      return task;
    };

    const failed = invoke(MARK_FAILED_STATE, FAILED_STAGE).next(
      new Fail(this, 'AnalysisFailed', { error: 'AnalysisFailed', cause: 'A stage of the analysis failed' }),
    );
    const [first, ...rest] = ANALYSIS_TASKS.map(({ state, stage }) =>
      // What still fails after the retries goes to MarkFailed with the error as the reason.
      invoke(state, stage).addCatch(failed, { resultPath: '$.error' }),
    );
    if (!first) throw new Error('the analysis workflow needs at least one stage');
    const definition = rest.reduce((chain, task) => chain.next(task), Chain.start(first));

    // Under /aws/vendedlogs/ the state machine's log delivery needs no resource policy of its own.
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-analysis-${stackInstance()}`,
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromChainable(definition),
      timeout: analysisTimeout(props.workerTimeout),
      tracingEnabled: props.tracing,
      // Execution data is incident content; state transitions alone show where an execution stopped.
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
    });

    new Rule(this, 'UnfinishedExecutions', {
      description:
        'Records an analysis whose execution timed out, was aborted or failed as FAILED, releasing its claim',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [this.stateMachine.stateMachineArn], status: [...UNFINISHED_EXECUTION_STATUSES] },
      },
      targets: [new LambdaTarget(props.worker)],
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
