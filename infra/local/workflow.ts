import type { RunOptions, StateMachine, StateMachineDefinition } from 'aws-local-stepfunctions';
import type { StageEvent } from '#functions/analysis-worker/index.ts';
import { log } from '#lib/log/logger.ts';
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
export type StageHandler = (payload: StageEvent) => Promise<unknown>;

export interface LocalWorkflowOptions {
  stageHandler: StageHandler;
}

export interface LocalWorkflow extends Workflow {
  /** Resolves once every execution started so far has ended, however it ended. */
  settled(): Promise<void>;
}

const FAKE_ENV = { partition: 'aws', region: 'us-east-1', account: '000000000000' };
const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': FAKE_ENV.partition,
  'AWS::Region': FAKE_ENV.region,
  'AWS::AccountId': FAKE_ENV.account,
  'AWS::URLSuffix': 'amazonaws.com',
};
const LAMBDA_ARN = /^arn:[^:]+:lambda:[^:]+:\d+:function:[^:]+$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The few intrinsics a resolved definitionString holds, with every resource given a fake ARN. */
const evaluate = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (isRecord(value)) {
    const join = value['Fn::Join'];
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) {
      return join[1].map(evaluate).join(join[0]);
    }
    const ref = value.Ref;
    if (typeof ref === 'string' && PSEUDO_PARAMETERS[ref]) return PSEUDO_PARAMETERS[ref];
    const getAtt = value['Fn::GetAtt'];
    if (Array.isArray(getAtt) && getAtt[1] === 'Arn') {
      return `arn:${FAKE_ENV.partition}:lambda:${FAKE_ENV.region}:${FAKE_ENV.account}:function:${String(getAtt[0])}`;
    }
  }
  throw new Error(`the local workflow cannot render ${JSON.stringify(value)}`);
};

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
  const [{ StateMachine }, { createServiceApp }] = await Promise.all([
    import('aws-local-stepfunctions'),
    import('../service-app.ts'),
  ]);
  // Only the state machine is read: the sender address no mail is sent from here stands in for a deploy's.
  const { stack } = createServiceApp({
    context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@localhost.test' },
    checks: false,
  });
  const definition = JSON.parse(
    evaluate(stack.resolve(stack.workflow.cfnStateMachine.definitionString)),
  ) as StateMachineDefinition;
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

/** Rendering builds the whole CDK stack (~1 s), so it happens once per process, on first use. */
const analysisStateMachine = (): Promise<RenderedMachine> => {
  analysis ??= renderAnalysis();
  return analysis;
};

/**
 * The Workflow port on aws-local-stepfunctions: `start` answers at once, as StartExecution does, and
 * the execution runs in the background with every Task calling `stageHandler`.
 */
export const createLocalWorkflow = ({ stageHandler }: LocalWorkflowOptions): LocalWorkflow => {
  const running = new Set<Promise<void>>();
  const started = new Map<string, string>();

  const execute = async (executionId: string, input: object): Promise<void> => {
    try {
      const { machine, taskNames } = await analysisStateMachine();
      const handler: LocalHandlers[string] = async (payload) =>
        (await stageHandler(payload as unknown as StageEvent)) as ExecutionInput;
      const handlers: LocalHandlers = Object.fromEntries(taskNames.map((name) => [name, handler]));
      await machine.run(input as ExecutionInput, { overrides: { taskResourceLocalHandlers: handlers } }).result;
      log.info('workflow execution succeeded', { executionId });
    } catch (error) {
      // A failed stage ends in MarkFailed and the Fail state: the analysis is recorded as failed.
      log.warn('workflow execution failed', { executionId, error });
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
      const execution = execute(executionId, input).finally(() => running.delete(execution));
      running.add(execution);
      return { executionId };
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
};
