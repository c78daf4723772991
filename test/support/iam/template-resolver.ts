/**
 * A synthesized template's intrinsic functions resolved to the values a deployment would give them:
 * each resource gets a made-up physical name, and `Ref`/`Fn::GetAtt` answer it in the form AWS
 * documents for the resource type (a table's Arn is `arn:<partition>:dynamodb:<region>:<account>:table/<name>`),
 * so ARNs built from a name, as the AWS adapters and AWS itself build them, meet the template's.
 */
export interface Deployment {
  partition: string;
  region: string;
  account: string;
  urlSuffix: string;
  stackName: string;
}

export const TEST_DEPLOYMENT: Deployment = {
  partition: 'aws',
  region: 'eu-west-1',
  account: '123456789012',
  urlSuffix: 'amazonaws.com',
  stackName: 'IncidentService-dev',
};

interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

export interface CfnTemplate {
  Resources: Record<string, TemplateResource>;
}

export type Resolve = (value: unknown) => unknown;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `parameters` are the values of the template's own parameters: a nested stack's, as its parent passes
 * them (resolved in the parent's template first).
 */
export const templateResolver = (
  template: CfnTemplate,
  deployment: Deployment = TEST_DEPLOYMENT,
  parameters: Record<string, unknown> = {},
): Resolve => {
  const { partition, region, account, urlSuffix, stackName } = deployment;
  const arn = (service: string, resource: string, inRegion = region, inAccount = account) =>
    `arn:${partition}:${service}:${inRegion}:${inAccount}:${resource}`;
  const pseudo: Record<string, string> = {
    'AWS::Partition': partition,
    'AWS::Region': region,
    'AWS::AccountId': account,
    'AWS::URLSuffix': urlSuffix,
    'AWS::StackName': stackName,
    'AWS::StackId': arn('cloudformation', `stack/${stackName}/00000000-0000-0000-0000-000000000000`),
  };

  const resourceOf = (logicalId: string): TemplateResource => {
    const resource = template.Resources[logicalId];
    if (!resource) throw new Error(`the template has no resource ${logicalId}`);
    return resource;
  };

  /** The name a resource is given: its name property when the stack sets one, else one made like CloudFormation's. */
  const physicalName = (logicalId: string, nameProperty?: string): string => {
    const given = nameProperty && resourceOf(logicalId).Properties?.[nameProperty];
    return given === undefined || given === '' ? `${stackName}-${logicalId}-PHYSICAL` : String(resolve(given));
  };

  const ref = (logicalId: string): string => {
    if (logicalId in pseudo) return pseudo[logicalId] as string;
    if (logicalId in parameters) return String(parameters[logicalId]);
    const { Type } = resourceOf(logicalId);
    switch (Type) {
      case 'AWS::DynamoDB::Table':
        return physicalName(logicalId, 'TableName');
      case 'AWS::SQS::Queue':
        return `https://sqs.${region}.${urlSuffix}/${account}/${physicalName(logicalId, 'QueueName')}`;
      case 'AWS::S3::Bucket':
        return physicalName(logicalId, 'BucketName').toLowerCase();
      case 'AWS::SecretsManager::Secret':
        return arn('secretsmanager', `secret:${physicalName(logicalId, 'Name')}-AbCdEf`);
      case 'AWS::StepFunctions::StateMachine':
        return arn('states', `stateMachine:${physicalName(logicalId, 'StateMachineName')}`);
      case 'AWS::Logs::LogGroup':
        return physicalName(logicalId, 'LogGroupName');
      case 'AWS::Lambda::Function':
        return physicalName(logicalId, 'FunctionName');
      case 'AWS::IAM::Role':
        return physicalName(logicalId, 'RoleName');
      case 'AWS::SES::EmailIdentity':
        return String(resolve(resourceOf(logicalId).Properties?.EmailIdentity));
      default:
        // API Gateway ids, SNS topics and the like: an opaque id is all a Ref gives.
        return `${logicalId.toLowerCase()}id`;
    }
  };

  const getAtt = (logicalId: string, attribute: string): string => {
    const { Type } = resourceOf(logicalId);
    const name = ref(logicalId);
    const byType: Record<string, Record<string, () => string>> = {
      'AWS::DynamoDB::Table': { Arn: () => arn('dynamodb', `table/${name}`) },
      'AWS::SQS::Queue': {
        Arn: () => arn('sqs', name.slice(name.lastIndexOf('/') + 1)),
        QueueName: () => name.slice(name.lastIndexOf('/') + 1),
        QueueUrl: () => name,
      },
      'AWS::S3::Bucket': { Arn: () => `arn:${partition}:s3:::${name}` },
      'AWS::StepFunctions::StateMachine': { Arn: () => name, Name: () => name.slice(name.lastIndexOf(':') + 1) },
      'AWS::Logs::LogGroup': { Arn: () => arn('logs', `log-group:${name}:*`) },
      'AWS::Lambda::Function': { Arn: () => arn('lambda', `function:${name}`) },
      'AWS::IAM::Role': { Arn: () => arn('iam', `role/${name}`, '') },
      'AWS::ApiGateway::RestApi': { RootResourceId: () => `${name}root` },
      'AWS::KMS::Key': { Arn: () => arn('kms', `key/${name}`) },
    };
    const value = byType[Type]?.[attribute];
    if (!value) throw new Error(`the template resolver cannot give ${Type} ${logicalId}.${attribute}`);
    return value();
  };

  const sub = (text: string, variables: Record<string, unknown>): string =>
    text.replace(/\$\{(!?)([^}]+)\}/g, (_match, literal: string, name: string) => {
      if (literal) return `\${${name}}`;
      if (name in variables) return String(resolve(variables[name]));
      const [logicalId, attribute] = name.split('.', 2) as [string, string | undefined];
      return attribute ? getAtt(logicalId, attribute) : ref(logicalId);
    });

  const resolve: Resolve = (value) => {
    if (Array.isArray(value)) return value.map(resolve);
    if (!isRecord(value)) return value;
    const [key, argument] = Object.entries(value)[0] ?? [];
    const args = argument as any;
    if (Object.keys(value).length === 1) {
      switch (key) {
        case 'Ref':
          return ref(args);
        case 'Fn::GetAtt':
          return Array.isArray(args)
            ? getAtt(args[0], args[1])
            : getAtt(...(String(args).split('.', 2) as [string, string]));
        case 'Fn::Join':
          return (resolve(args[1]) as unknown[]).join(args[0]);
        case 'Fn::Sub':
          return Array.isArray(args) ? sub(args[0], args[1]) : sub(args, {});
        case 'Fn::Select':
          return (resolve(args[1]) as unknown[])[Number(resolve(args[0]))];
        case 'Fn::Split':
          return String(resolve(args[1])).split(args[0]);
      }
      if (key?.startsWith('Fn::')) throw new Error(`the template resolver does not know ${key}`);
    }
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, resolve(inner)]));
  };
  return resolve;
};
