import type { RunningBundle } from '../built-bundles.ts';
import type { BundleStack } from '../bundle-stack.ts';
import type { TemplateFunction } from '../template-env.ts';
import type { FunctionPolicy } from './function-policies.ts';
import { evaluate } from './policy-evaluator.ts';
import { sdkRequests, type Judged } from './sdk-requests.ts';
import { TEST_DEPLOYMENT } from './template-resolver.ts';

/**
 * The template resolved twice, once to this machine's resources (what the bundles run with) and once to a
 * deployment's (what the policies name): each local value of a variable is the deployed value of the same
 * variable, so a resource a call names here is judged as the resource it would name in AWS.
 */
export const judgedAsDeployed = (
  functions: ReadonlyMap<string, TemplateFunction>,
  policies: ReadonlyMap<string, FunctionPolicy>,
): Judged => {
  const deployed = new Map<string, string>();
  for (const [name, { env }] of functions) {
    const policyEnv = policies.get(name)?.env ?? {};
    for (const [variable, local] of Object.entries(env)) {
      const value = policyEnv[variable];
      if (value !== undefined) deployed.set(local, value);
    }
  }
  return { deployment: TEST_DEPLOYMENT, resource: (local) => deployed.get(local) ?? local };
};

export interface Verdicts {
  /** `<function> <action> on <resource> <context>`, for each request its role's policy does not allow. */
  denied: string[];
  /** Commands the proof cannot translate: each needs its authorization written in sdk-requests.ts. */
  unmapped: string[];
}

/** Every command every bundle's clients sent, as the IAM requests AWS would make, against its function's policy. */
export const judgeSdkCalls = (
  running: ReadonlyMap<string, RunningBundle>,
  policies: ReadonlyMap<string, FunctionPolicy>,
  judged: Judged,
): Verdicts => {
  const denied = new Set<string>();
  const unmapped = new Set<string>();
  for (const [name, { sdkCalls }] of running) {
    const statements = policies.get(name)?.statements ?? [];
    for (const call of sdkCalls) {
      try {
        for (const request of sdkRequests(call, judged)) {
          if (evaluate(statements, request) !== 'allowed')
            denied.add(`${name} ${request.action} on ${request.resource} ${JSON.stringify(request.context ?? {})}`);
        }
      } catch (error) {
        unmapped.add(`${name}: ${(error as Error).message}`);
      }
    }
  }
  return { denied: [...denied], unmapped: [...unmapped] };
};

/** Read by node itself as it starts (source maps), before any code of the bundle runs. */
const READ_BY_NODE = new Set(['NODE_OPTIONS']);

/** `<function>: <VARIABLE>` for each variable the template gives a function and its bundle never read. */
export const unreadVariables = ({ running, functions }: BundleStack): string[] =>
  [...running]
    .flatMap(([name, { envRead }]) =>
      Object.keys(functions.get(name)?.env ?? {})
        .filter((variable) => !envRead.has(variable) && !READ_BY_NODE.has(variable))
        .map((variable) => `${name}: ${variable}`),
    )
    .sort();

/**
 * Every request that reached the DynamoDB or SQS server or the fake AWS endpoint without the mark the recording
 * middleware adds: a command of a client made outside the factory, which the proof did not judge.
 */
export const requestsUnseenByTheMiddleware = ({ dynamoWire, sqsWire, aws }: BundleStack) =>
  [
    ...[...dynamoWire.calls, ...sqsWire.calls].map(({ caller, target, recorded }) => ({
      caller,
      operation: target,
      recorded,
    })),
    ...aws.calls.map(({ caller, operation, recorded }) => ({ caller, operation, recorded })),
  ].filter(({ recorded }) => !recorded);
