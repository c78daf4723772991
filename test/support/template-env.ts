import type { CfnElement } from 'aws-cdk-lib';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_NAMES } from '#lib/ports/queue/queue.ts';
import { inspectDefaultApp } from '../infra/template.ts';

/** What the template's references become on this machine: one value per kind of resource a function names. */
export interface LocalResources {
  tableName: string;
  queueUrl(name: QueueName): string;
  secretArn: string;
  integrationProvidersSecretArn: string;
  vapidSecretArn: string;
  credentialsKeyArn: string;
  stateMachineArn: string;
  bucketName: string;
  usagePlanId: string;
  restApiId: string;
  region: string;
}

/** A function as the template deploys it: its environment, resolved. */
export interface TemplateFunction {
  env: Record<string, string>;
}

type Intrinsic =
  | string
  | ({ Ref?: string; 'Fn::Join'?: [string, Intrinsic[]]; 'Fn::GetAtt'?: [string, string] } & Record<string, unknown>);

/**
 * Every function of the stack, by its `functions/` folder name: its `Environment.Variables` from the synthesized template (bundling skipped), each value
 * resolved as CloudFormation would, but to the local resource standing in for the one it names. A
 * reference this does not know fails loudly: a new kind of resource needs its local stand-in named here.
 */
export const templateFunctions = (local: LocalResources): ReadonlyMap<string, TemplateFunction> => {
  const { stack, resources, logicalId, functionResource } = inspectDefaultApp();
  const queueByLogicalId = new Map(
    QUEUE_NAMES.map((name) => [logicalId(stack.queues[name].queue.node.defaultChild as CfnElement), name] as const),
  );
  const providersSecretId = logicalId(stack.integrationProviders.node.defaultChild as CfnElement);
  const vapidSecretId = logicalId(stack.vapidSecret.node.defaultChild as CfnElement);
  const credentialsKeyId = logicalId(stack.credentialsKey.node.defaultChild as CfnElement);
  const pseudo: Record<string, string> = {
    'AWS::Region': local.region,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::Partition': 'aws',
    'AWS::AccountId': '000000000000',
  };
  const byType: Record<string, (id: string) => string | undefined> = {
    'AWS::DynamoDB::Table': () => local.tableName,
    'AWS::SQS::Queue': (id) => {
      const name = queueByLogicalId.get(id);
      return name && local.queueUrl(name);
    },
    'AWS::SecretsManager::Secret': (id) =>
      id === providersSecretId
        ? local.integrationProvidersSecretArn
        : id === vapidSecretId
          ? local.vapidSecretArn
          : local.secretArn,
    'AWS::StepFunctions::StateMachine': () => local.stateMachineArn,
    'AWS::S3::Bucket': () => local.bucketName,
    'AWS::ApiGateway::UsagePlan': () => local.usagePlanId,
    'AWS::ApiGateway::RestApi': () => local.restApiId,
  };

  const resolve = (value: Intrinsic, where: string): string => {
    if (typeof value === 'string') return value;
    if (value.Ref !== undefined) {
      const resolved = pseudo[value.Ref] ?? byType[resources[value.Ref]?.Type ?? '']?.(value.Ref);
      if (resolved === undefined) throw new Error(`${where}: no local stand-in for Ref ${value.Ref}`);
      return resolved;
    }
    if (value['Fn::GetAtt']?.[0] === credentialsKeyId && value['Fn::GetAtt'][1] === 'Arn')
      return local.credentialsKeyArn;
    if (value['Fn::Join']) {
      const [separator, parts] = value['Fn::Join'];
      return parts.map((part) => resolve(part, where)).join(separator);
    }
    throw new Error(`${where}: cannot resolve ${JSON.stringify(value)}`);
  };

  return new Map(
    [...stack.functions].map(([name, fn]) => {
      const variables = (functionResource(fn).Properties.Environment?.Variables ?? {}) as Record<string, Intrinsic>;
      const env = Object.entries(variables).map(([key, value]) => [key, resolve(value, `${name} ${key}`)]);
      return [name, { env: Object.fromEntries(env) }];
    }),
  );
};
