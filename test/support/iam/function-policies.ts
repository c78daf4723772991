import type { CfnElement } from 'aws-cdk-lib';
import type { inspect } from '../../infra/template.ts';
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

/** Each declared function's policy and environment, by function name, as `deployment` would see them. */
export const functionPolicies = (
  view: ReturnType<typeof inspect>,
  deployment: Deployment = TEST_DEPLOYMENT,
): Map<string, FunctionPolicy> => {
  const { stack, template, logicalId, functionResource, statementsOf } = view;
  const cfn = template.toJSON() as CfnTemplate;
  const resolve = templateResolver(cfn, deployment);
  const mappings = Object.values(cfn.Resources)
    .filter(({ Type }) => Type === 'AWS::Lambda::EventSourceMapping')
    .map(({ Properties }) => Properties ?? {});
  return new Map(
    [...stack.functions].map(([name, fn]) => {
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
