import { dynamoWireRequests } from './dynamo-requests.ts';
import type { IamRequest } from './policy-evaluator.ts';
import type { SdkCall } from './sdk-calls.ts';
import type { Deployment } from './template-resolver.ts';

/**
 * Where the calls were made and where they are judged: `resource` turns a name a call carries (a table name,
 * a queue URL, a secret's ARN, as the function's environment gave it on this machine) into the name the
 * deployment gives that resource, so the request meets the synthesized policy. A name it does not know is
 * kept, and no policy names it.
 */
export interface Judged {
  deployment: Deployment;
  resource(local: string): string;
}

type Mapping = (command: string, input: Record<string, any>, judged: Judged) => IamRequest[] | undefined;

const arn = ({ deployment: { partition, region, account } }: Judged, service: string, resource: string) =>
  `arn:${partition}:${service}:${region}:${account}:${resource}`;

const dynamodb: Mapping = (command, input, judged) => {
  const table = judged.resource(String(input.TableName ?? Object.keys(input.RequestItems ?? {})[0]));
  return dynamoWireRequests(command, input, arn(judged, 'dynamodb', `table/${table}`));
};

/** A queue's ARN from its URL, `https://sqs.<region>.<suffix>/<account>/<name>`. */
const sqs: Mapping = (command, input, judged) => {
  const url = new URL(judged.resource(String(input.QueueUrl)));
  const [, account, name] = url.pathname.split('/');
  const region = url.hostname.split('.')[1];
  const resource = `arn:${judged.deployment.partition}:sqs:${region}:${account}:${name}`;
  return [{ action: `sqs:${command.replace(/Batch$/, '')}`, resource }];
};

const sfn: Mapping = (command, input, judged) =>
  command === 'StartExecution'
    ? [{ action: 'states:StartExecution', resource: judged.resource(String(input.stateMachineArn)) }]
    : undefined;

/** SES authorizes the sender's identity, and in the sandbox each recipient's, with the sender as `ses:FromAddress`. */
const sesv2: Mapping = (command, input, judged) => {
  if (command !== 'SendEmail') return undefined;
  const from = judged.resource(String(input.FromEmailAddress));
  const { ToAddresses = [], CcAddresses = [], BccAddresses = [] } = input.Destination ?? {};
  return [from, ...ToAddresses, ...CcAddresses, ...BccAddresses].map((identity: string) => ({
    action: 'ses:SendEmail',
    resource: arn(judged, 'ses', `identity/${identity}`),
    context: { 'ses:FromAddress': from },
  }));
};

const s3: Mapping = (command, input, judged) => {
  const object = `arn:${judged.deployment.partition}:s3:::${judged.resource(String(input.Bucket))}/${input.Key}`;
  if (command === 'GetObject') return [{ action: 's3:GetObject', resource: object }];
  if (command !== 'PutObject') return undefined;
  // A PutObject that carries tags is authorized for s3:PutObjectTagging too.
  const tagging = input.Tagging ? [{ action: 's3:PutObjectTagging', resource: object }] : [];
  return [{ action: 's3:PutObject', resource: object }, ...tagging];
};

/** A key named by its ARN, with each pair of the encryption context as its own condition key. */
const kms: Mapping = (command, input, judged) => {
  if (command !== 'GenerateDataKey' && command !== 'Decrypt') return undefined;
  const context = Object.fromEntries(
    Object.entries((input.EncryptionContext ?? {}) as Record<string, string>).map(([name, value]) => [
      `kms:EncryptionContext:${name}`,
      value,
    ]),
  );
  return [{ action: `kms:${command}`, resource: judged.resource(String(input.KeyId)), context }];
};

const secretsManager: Mapping = (command, input, judged) =>
  command === 'GetSecretValue'
    ? [{ action: 'secretsmanager:GetSecretValue', resource: judged.resource(String(input.SecretId)) }]
    : undefined;

/** API Gateway's management API is authorized by HTTP method on the path of the resource. */
const apiGateway: Mapping = (command, input, judged) => {
  const { partition, region } = judged.deployment;
  const tagContext = (kind: 'RequestTag' | 'ResourceTag', tags: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(tags).map(([name, value]) => [`aws:${kind}/${name}`, judged.resource(value)]));
  const on = (method: string, path: string, context: Record<string, string> = {}) => [
    { action: `apigateway:${method}`, resource: `arn:${partition}:apigateway:${region}::${path}`, context },
  ];
  const planKeys = () => `/usageplans/${judged.resource(String(input.usagePlanId))}/keys`;
  switch (command) {
    case 'CreateApiKey':
      return on('POST', '/apikeys', tagContext('RequestTag', input.tags));
    case 'UpdateApiKey':
      return on('PATCH', `/apikeys/${input.apiKey}`, tagContext('ResourceTag', input.resourceTags));
    case 'DeleteApiKey':
      return on('DELETE', `/apikeys/${input.apiKey}`, tagContext('ResourceTag', input.resourceTags));
    case 'CreateUsagePlanKey':
      return on('POST', planKeys());
    case 'DeleteUsagePlanKey':
      return on('DELETE', `${planKeys()}/${input.keyId}`);
    default:
      return undefined;
  }
};

/** A publish to a topic names the topic; one straight to a phone number names no resource but `*`. */
const sns: Mapping = (command, input, judged) =>
  command === 'Publish'
    ? [
        {
          action: 'sns:Publish',
          resource: (input.TopicArn ?? input.TargetArn) ? judged.resource(input.TopicArn ?? input.TargetArn) : '*',
        },
      ]
    : undefined;

/** A cross-region inference profile's id starts with the geography it routes within. */
const PROFILE_ID = /^(?:global|us|us-gov|eu|apac|jp|au|ca)\.(.+)$/;

/**
 * Converse is authorized as bedrock:InvokeModel. Through an inference profile it is authorized twice: on the
 * profile, and on the foundation model in the region the profile routes to (here the stack's own, one of
 * them), with the profile as `bedrock:InferenceProfileArn`.
 */
const bedrockRuntime: Mapping = (command, input, judged) => {
  if (command !== 'Converse' && command !== 'InvokeModel') return undefined;
  const { partition, region } = judged.deployment;
  const modelId = judged.resource(String(input.modelId));
  const model = (id: string) => `arn:${partition}:bedrock:${region}::foundation-model/${id}`;
  const profile = PROFILE_ID.exec(modelId);
  if (!profile)
    return [{ action: 'bedrock:InvokeModel', resource: modelId.startsWith('arn:') ? modelId : model(modelId) }];
  const profileArn = arn(judged, 'bedrock', `inference-profile/${modelId}`);
  return [
    { action: 'bedrock:InvokeModel', resource: profileArn },
    {
      action: 'bedrock:InvokeModel',
      resource: model(profile[1] ?? ''),
      context: { 'bedrock:InferenceProfileArn': profileArn },
    },
  ];
};

const BY_CLIENT: Record<string, Mapping> = {
  DynamoDBClient: dynamodb,
  SQSClient: sqs,
  SFNClient: sfn,
  SESv2Client: sesv2,
  S3Client: s3,
  KMSClient: kms,
  SecretsManagerClient: secretsManager,
  APIGatewayClient: apiGateway,
  SNSClient: sns,
  BedrockRuntimeClient: bedrockRuntime,
};

/**
 * The IAM request(s) AWS authorizes one SDK command as, for the function's role: its action, the resource
 * from the command's input and the condition keys the request carries. A command this does not know throws,
 * so a new call fails the proof until its authorization is written here.
 */
export const sdkRequests = ({ client, command, input }: SdkCall, judged: Judged): IamRequest[] => {
  const requests = BY_CLIENT[client]?.(command, input, judged);
  if (!requests) throw new Error(`no IAM mapping for ${client} ${command}: add it to test/support/iam/sdk-requests.ts`);
  return requests;
};
