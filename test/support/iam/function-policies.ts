import type { CfnElement } from 'aws-cdk-lib';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import type { ServiceApp } from '#infra/service-app.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';
import { analysisWorker } from '#lib/workers/analysis-worker.ts';
import { correlationSweep } from '#lib/workers/correlation-sweep.ts';
import { correlationWorker } from '#lib/workers/correlation-worker.ts';
import { ingestionWorker } from '#lib/workers/ingestion-worker.ts';
import { inspect } from '../../infra/template.ts';
import type { PolicyStatement } from './policy-evaluator.ts';
import { TEST_DEPLOYMENT, templateResolver, type CfnTemplate, type Deployment } from './template-resolver.ts';

/** What the template gives one function: its role's statements and its environment, intrinsics resolved. */
export interface FunctionPolicy {
  name: string;
  statements: PolicyStatement[];
  env: Record<string, string>;
  logGroupName: string;
  /** ARNs of the queues whose event source mapping invokes the function, polling with its role. */
  consumes: string[];
}

export const WORKERS: readonly FunctionDeclaration[] = [
  ingestionWorker,
  correlationWorker,
  correlationSweep,
  analysisWorker,
];

/** Every Lambda of the stack: the route groups and the workers. */
export const ALL_FUNCTIONS: readonly FunctionDeclaration[] = [...ROUTE_GROUPS, ...WORKERS];

const serviceFunctionOf = ({ stack }: ServiceApp, name: string): ServiceFunction => {
  const workers: Record<string, ServiceFunction> = {
    [ingestionWorker.name]: stack.ingestionWorker,
    [correlationWorker.name]: stack.correlationWorker,
    [correlationSweep.name]: stack.correlationSweep,
    [analysisWorker.name]: stack.analysisWorker,
  };
  const fn = stack.groupFunctions.get(name) ?? workers[name];
  if (!fn) throw new Error(`the stack has no function ${name}`);
  return fn;
};

/** Each declared function's policy and environment, by function name, as `deployment` would see them. */
export const functionPolicies = (
  app: ServiceApp,
  deployment: Deployment = TEST_DEPLOYMENT,
): Map<string, FunctionPolicy> => {
  const { template, logicalId, functionResource, statementsOf } = inspect(app);
  const cfn = template.toJSON() as CfnTemplate;
  const resolve = templateResolver(cfn, deployment);
  const mappings = Object.values(cfn.Resources)
    .filter(({ Type }) => Type === 'AWS::Lambda::EventSourceMapping')
    .map(({ Properties }) => Properties ?? {});
  return new Map(
    ALL_FUNCTIONS.map(({ name }) => {
      const fn = serviceFunctionOf(app, name);
      const properties = functionResource(fn).Properties;
      const fnId = logicalId(fn.lambda.node.defaultChild as CfnElement);
      return [
        name,
        {
          name,
          statements: resolve(statementsOf(fn)) as PolicyStatement[],
          env: resolve(properties.Environment?.Variables ?? {}) as Record<string, string>,
          // Where Lambda itself writes the function's logs, with the function's role.
          logGroupName: resolve(
            properties.LoggingConfig?.LogGroup ?? {
              'Fn::Join': ['', ['/aws/lambda/', { Ref: fnId }]],
            },
          ) as string,
          consumes: mappings
            .filter((mapping) => JSON.stringify(mapping.FunctionName) === JSON.stringify({ Ref: fnId }))
            .map((mapping) => resolve(mapping.EventSourceArn) as string),
        },
      ];
    }),
  );
};
