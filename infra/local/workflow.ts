import type { RunOptions, StateMachine } from 'aws-local-stepfunctions';
import type { ExecutionEndedEvent, StageEvent } from '#functions/analysis-worker/index.ts';
import { log } from '#lib/log/logger.ts';
import { functionTimeoutSeconds } from '../function-timeouts.ts';
import { FAKE_ENV } from './local-aws.ts';
import { invokeWithin } from './lambda-context.ts';
import type { Workflow, WorkflowName } from '#lib/ports/workflow/workflow.ts';

type WithResolvers = <T>() => {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

// aws-local-stepfunctions 3 calls Promise.withResolvers in every Task state; Node 20 lacks it (22 has it).
const promiseStatics = Promise as unknown as { withResolvers?: WithResolvers };
promiseStatics.withResolvers ??= <T>() => {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/** What the analysis worker Lambda receives; the local handler gets the same and returns the next state. */
type StageHandler = (payload: StageEvent) => Promise<unknown>;

/** What the rule on unfinished executions hands the analysis worker (infra/constructs/analysis-workflow.ts). */
type EndedHandler = (event: ExecutionEndedEvent) => Promise<unknown>;

export interface LocalWorkflowOptions {
  stageHandler: StageHandler;
  endedHandler: EndedHandler;
  /**
   * How long a failed task waits before its retry: the deployed retrier's intervals (1 s, then 2 s) unless a
   * test that counts retries passes 0, so it does not wait them out on the real clock.
   */
  retryWaitMs?: number;
}

/** Step Functions' limit on a state's input or output, in characters of its JSON. */
const STATE_DATA_LIMIT = 262_144;

const withinStateLimit = (value: unknown, what: string): void => {
  if (JSON.stringify(value ?? null).length > STATE_DATA_LIMIT) {
    throw Object.assign(new Error(`the ${what} is over Step Functions' 256 KiB`), { name: 'States.DataLimitExceeded' });
  }
};

/** The status and error an ended execution's status-change event carries, from the local runner's error. */
const endOf = (error: unknown): Omit<ExecutionEndedEvent['detail'], 'input'> => {
  const name = error instanceof Error ? error.name : '';
  if (name === 'ExecutionTimeoutError') return { status: 'TIMED_OUT', error: null, cause: null };
  if (name === 'ExecutionAbortedError') return { status: 'ABORTED', error: null, cause: null };
  const { message } = error instanceof Error ? error : new Error(String(error));
  return { status: 'FAILED', error: name || 'Error', cause: message };
};

export interface LocalWorkflow extends Workflow {
  /** Resolves once every execution started so far has ended, however it ended. */
  settled(): Promise<void>;
}

const WORKER = 'analysis-worker';
const LAMBDA_ARN = /^arn:[^:]+:lambda:[^:]+:\d+:function:[^:]+$/;

/**
 * The state machine `cdk synth` deploys, built in-process without bundling. Every Task must invoke a
 * Lambda by ARN (`payloadResponseOnly`), so a local handler's argument and result are exactly the
 * function's event and return value, with no `Payload` wrapper to mimic.
 */
type LocalHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
type ExecutionInput = Parameters<StateMachine['run']>[0];

interface RenderedMachine {
  machine: StateMachine;
  taskNames: string[];
}

const renderAnalysis = async (): Promise<RenderedMachine> => {
  const [{ StateMachine }, { analysisDefinition }] = await Promise.all([
    import('aws-local-stepfunctions'),
    import('./analysis-definition.ts'),
  ]);
  const definition = analysisDefinition();
  const taskNames: string[] = [];
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type !== 'Task') continue;
    if (!LAMBDA_ARN.test(state.Resource)) {
      throw new Error(`task ${name} invokes ${state.Resource}; the local workflow runs Lambda tasks only`);
    }
    taskNames.push(name);
  }
  return { machine: new StateMachine(definition), taskNames };
};

let analysis: Promise<RenderedMachine> | undefined;

/** Rendering builds the workflow's constructs, so it happens once per process, on first use. */
const analysisStateMachine = (): Promise<RenderedMachine> => {
  analysis ??= renderAnalysis();
  return analysis;
};

/**
 * The execution names remembered for StartExecution's idempotency, newest kept: a retried start comes
 * within minutes, and a stack running for days must not keep every name it ever started.
 */
const REMEMBERED_EXECUTIONS = 10_000;

/**
 * The Workflow port on aws-local-stepfunctions: `start` answers at once, as StartExecution does, and
 * the execution runs in the background with every Task calling `stageHandler`.
 */
export const createLocalWorkflow = ({
  stageHandler,
  endedHandler,
  retryWaitMs,
}: LocalWorkflowOptions): LocalWorkflow => {
  const running = new Set<Promise<void>>();
  const started = new Map<string, string>();

  const execute = async (executionId: string, input: object): Promise<void> => {
    // As in AWS, no task runs before StartExecution has answered, even with the machine rendered already.
    await new Promise(setImmediate);
    try {
      const { machine, taskNames } = await analysisStateMachine();
      // Each task invokes the worker as Lambda would: within its timeout, and within the state data limit.
      const handler: LocalHandlers[string] = async (payload) => {
        withinStateLimit(payload, 'task input');
        const result = await invokeWithin(WORKER, executionId, functionTimeoutSeconds(WORKER) * 1_000, () =>
          stageHandler(payload as unknown as StageEvent),
        );
        withinStateLimit(result, 'task output');
        return result as ExecutionInput;
      };
      const handlers: LocalHandlers = Object.fromEntries(taskNames.map((name) => [name, handler]));
      const retryIntervalOverrides =
        retryWaitMs === undefined ? undefined : Object.fromEntries(taskNames.map((name) => [name, retryWaitMs]));
      const overrides = {
        taskResourceLocalHandlers: handlers,
        ...(retryIntervalOverrides && { retryIntervalOverrides }),
      };
      await machine.run(input as ExecutionInput, { overrides }).result;
      log.info('workflow execution succeeded', { executionId });
    } catch (error) {
      // A failed stage ends in MarkFailed and the Fail state; a timeout skips it. Either way the rule on
      // unfinished executions hands the end to the worker, as EventBridge does in AWS.
      log.warn('workflow execution failed', { executionId, error });
      await endedHandler({
        'detail-type': 'Step Functions Execution Status Change',
        detail: { ...endOf(error), input: JSON.stringify(input) },
      }).catch((failure: unknown) => log.error('the unfinished execution was not recorded', { executionId, failure }));
    }
  };

  return {
    async start(workflow: WorkflowName, input: object, name: string) {
      const executionId = `arn:${FAKE_ENV.partition}:states:${FAKE_ENV.region}:${FAKE_ENV.account}:execution:${workflow}:${name}`;
      // StartExecution is idempotent by name for the same input, and refuses the name for another.
      const previousInput = started.get(executionId);
      if (previousInput !== undefined) {
        if (previousInput === JSON.stringify(input)) return { executionId };
        throw new Error(`ExecutionAlreadyExists: an execution named ${name} already ran with another input`);
      }
      started.set(executionId, JSON.stringify(input));
      if (started.size > REMEMBERED_EXECUTIONS) started.delete(started.keys().next().value as string);
      const execution = execute(executionId, input).finally(() => running.delete(execution));
      running.add(execution);
      return { executionId };
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
};
