import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { AnalysisWorkflow } from '../constructs/analysis-workflow.ts';
import { functionTimeoutSeconds } from '../function-timeouts.ts';
import { FAKE_ENV } from './local-aws.ts';

const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': FAKE_ENV.partition,
  'AWS::Region': FAKE_ENV.region,
  'AWS::AccountId': FAKE_ENV.account,
  'AWS::URLSuffix': 'amazonaws.com',
};

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
 * The analysis state machine's definition as `cdk synth` deploys it: the same construct on a worker with the
 * deployed timeout, which is all the definition reads of the stack (test/infra/stack-data.test.ts compares the
 * two). Building the whole service app for it cost about 4 s of CPU in each process that ran an analysis.
 */
export const analysisDefinition = (): StateMachineDefinition => {
  const stack = new Stack(new App(), 'LocalAnalysis');
  const workerTimeout = Duration.seconds(functionTimeoutSeconds('analysis-worker'));
  const worker = new LambdaFunction(stack, 'AnalysisWorker', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('export const handler = () => undefined;'),
    timeout: workerTimeout,
  });
  const { cfnStateMachine } = new AnalysisWorkflow(stack, 'AnalysisWorkflow', {
    worker,
    workerTimeout,
    logRetention: RetentionDays.ONE_DAY,
    removalPolicy: RemovalPolicy.DESTROY,
    tracing: false,
  });
  return JSON.parse(evaluate(stack.resolve(cfnStateMachine.definitionString))) as StateMachineDefinition;
};
