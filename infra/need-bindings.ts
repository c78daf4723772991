import { ArnFormat, Aws, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ENV } from '#lib/ports/env.ts';
import { METRICS_NAMESPACE } from '#lib/ports/metrics/metrics.ts';
import type { Binding, FunctionDeclaration, TableAccess } from '#lib/ports/need.ts';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_URL_ENV } from '#lib/ports/queue/queue-need.ts';
import { bedrockCallTimeoutMs } from '#lib/ports/reasoner/bedrock-reasoner.ts';
import type { AnalysisWorkflow } from './constructs/analysis-workflow.ts';
import type { MailIdentity } from './constructs/mail-identity.ts';
import type { PayloadBucket } from './constructs/payload-bucket.ts';
import type { ServiceFunction } from './constructs/service-function.ts';
import type { ServiceTable } from './constructs/service-table.ts';
import type { WorkQueue } from './constructs/work-queue.ts';
import type { ServiceSettings } from './settings.ts';

const TABLE_ACCESS_ORDER: readonly TableAccess[] = ['limiterCounters', 'read', 'readWrite'];

/** The widest table access among a function's needs, or undefined when it declares none. */
export const tableAccessOf = ({ needs }: FunctionDeclaration): TableAccess | undefined =>
  needs
    .flatMap(({ binding }) => (binding.kind === 'table' ? [binding.access] : []))
    .sort((a, b) => TABLE_ACCESS_ORDER.indexOf(b) - TABLE_ACCESS_ORDER.indexOf(a))[0];

export const declares = ({ needs }: FunctionDeclaration, kind: Binding['kind']): boolean =>
  needs.some(({ binding }) => binding.kind === kind);

/** The resources of the stack a function's needs can name, before the API exists. */
export interface NeedTargets {
  table: ServiceTable;
  queues: Record<QueueName, WorkQueue>;
  workflow: AnalysisWorkflow;
  payloads: PayloadBucket;
  mail: MailIdentity;
  jwtSecret: Secret;
  /** The seed of the VAPID key pair that signs Web Push messages (lib/ports/push-keys). */
  vapidSecret: Secret;
  /** The OAuth applications of the integrations, as JSON (lib/ports/integration-providers). */
  integrationProviders: Secret;
  /** The master key of stored third-party tokens. */
  credentialsKey: Key;
  settings: ServiceSettings;
  /** The stack's name: the `service` dimension of the business metrics. */
  serviceName: string;
}

/**
 * The grants and environment a function's declared needs call for: the one place a need becomes IAM and
 * configuration, so a port a function uses is a port it was granted. The needs that name the API or its
 * usage plans are bound by the stack once those exist.
 */
export const bindNeeds = (
  {
    table,
    queues,
    workflow,
    payloads,
    mail,
    jwtSecret,
    vapidSecret,
    integrationProviders,
    credentialsKey,
    settings,
    serviceName,
  }: NeedTargets,
  fn: ServiceFunction,
  declaration: FunctionDeclaration,
): void => {
  const access = tableAccessOf(declaration);
  if (access) fn.bindTable(table, access);
  for (const { binding } of declaration.needs) {
    switch (binding.kind) {
      case 'table':
        // The widest access is bound above; a reader that counts requests gets the limiter windows too.
        if (binding.access === 'limiterCounters' && access === 'read') table.grant(fn.lambda, binding.access);
        break;
      case 'apiKeyUsage':
        if (access !== 'readWrite') table.grantApiKeyUsage(fn.lambda);
        break;
      case 'queues':
        for (const name of binding.queues) {
          queues[name].queue.grantSendMessages(fn.lambda);
          fn.lambda.addEnvironment(QUEUE_URL_ENV[name], queues[name].queue.queueUrl);
        }
        break;
      case 'workflow':
        workflow.stateMachine.grantStartExecution(fn.lambda);
        fn.lambda.addEnvironment(ENV.analysisStateMachineArn, workflow.stateMachine.stateMachineArn);
        break;
      case 'mail':
        // APP_URL is set by the stack once the API, whose URL it defaults to, exists.
        queues.mail.queue.grantSendMessages(fn.lambda);
        fn.lambda.addEnvironment(QUEUE_URL_ENV.mail, queues.mail.queue.queueUrl);
        break;
      case 'mailDelivery':
        mail.grantSend(fn.lambda);
        fn.lambda.addEnvironment(ENV.mailFrom, settings.mailFrom);
        break;
      case 'signingKeys':
        jwtSecret.grantRead(fn.lambda);
        fn.lambda.addEnvironment(ENV.jwtSecretArn, jwtSecret.secretArn);
        break;
      case 'pushKeys':
        vapidSecret.grantRead(fn.lambda);
        fn.lambda.addEnvironment(ENV.vapidSecretArn, vapidSecret.secretArn);
        break;
      case 'usagePlan':
      case 'unkeyedUsage':
        // Bound by the stack once the API and its usage plans exist.
        break;
      case 'objects':
        payloads.bind(fn.lambda, binding.access);
        break;
      case 'rateLimits':
        fn.lambda.addEnvironment(ENV.rateLimits, settings.rateLimits);
        break;
      case 'cors':
        if (settings.allowedOrigins.length > 0) {
          fn.lambda.addEnvironment(ENV.allowedOrigins, settings.allowedOrigins.join(','));
        }
        break;
      case 'oauthProviders':
        fn.lambda.addEnvironment(ENV.oauthProviders, settings.oauthProviders);
        break;
      case 'integrationProviders':
        // API_URL is set by the stack once the API exists.
        integrationProviders.grantRead(fn.lambda);
        fn.lambda.addEnvironment(ENV.integrationProvidersSecretArn, integrationProviders.secretArn);
        break;
      case 'credentialKeys':
        fn.lambda.addToRolePolicy(
          new PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: [credentialsKey.keyArn] }),
        );
        fn.lambda.addEnvironment(ENV.credentialsKeyId, credentialsKey.keyArn);
        break;
      case 'sms':
        // A publish to a phone number names no resource IAM can match but `*`; everything with an ARN (topics,
        // the alarm topic among them, and platform endpoints) is left out, so this allows SMS and nothing else.
        fn.lambda.addToRolePolicy(
          new PolicyStatement({ actions: ['sns:Publish'], notResources: [`arn:${Aws.PARTITION}:sns:*`] }),
        );
        break;
      case 'network':
        // No grant: DNS and outbound HTTPS need none. Empty means no private network is reachable.
        if (settings.outboundPrivateNetworks) {
          fn.lambda.addEnvironment(ENV.outboundPrivateNetworks, settings.outboundPrivateNetworks);
        }
        break;
      case 'reasoner':
        // Without a model the default engine reasons alone, and the function gets no Bedrock access at all.
        if (settings.bedrockModelId) grantBedrockModel(fn, settings.bedrockModelId);
        break;
      case 'metrics':
        // No grant: EMF documents reach CloudWatch through the function's log stream.
        fn.lambda.addEnvironment(ENV.metricsNamespace, METRICS_NAMESPACE);
        fn.lambda.addEnvironment(ENV.serviceName, serviceName);
        break;
    }
  }
};

/**
 * A system-defined cross-region inference profile's id: a geography (`us.`, `eu.`, `apac.`, `global.`, ...)
 * in front of the model's id.
 */
const INFERENCE_PROFILE = /^(?:us|us-gov|eu|apac|jp|au|ca|global)\.(.+)$/;

/**
 * Converse on the one configured model. Through a cross-region inference profile, Bedrock authorizes the
 * call twice: on the profile, in the stack's region, and on the model in whichever region the profile
 * routes it to. Those regions are the profile's to choose (and grow), so the model is granted in every
 * region, but only for calls made through this very profile (`bedrock:InferenceProfileArn`).
 */
const grantBedrockModel = (fn: ServiceFunction, modelId: string): void => {
  const stack = Stack.of(fn.lambda);
  const arn = (resource: string, resourceName: string, account: string, region?: string) =>
    stack.formatArn({
      service: 'bedrock',
      resource,
      resourceName,
      account,
      ...(region && { region }),
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  const profileModel = INFERENCE_PROFILE.exec(modelId)?.[1];
  if (profileModel) {
    const profileArn = arn('inference-profile', modelId, stack.account);
    fn.lambda.addToRolePolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [profileArn] }));
    fn.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [arn('foundation-model', profileModel, '', '*')],
        conditions: { StringEquals: { 'bedrock:InferenceProfileArn': profileArn } },
      }),
    );
    Validations.of(fn.lambda.role ?? fn.lambda).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profileModel}]`,
      reason:
        'A cross-region inference profile sends each call to the model in a region of its choosing; the ' +
        'bedrock:InferenceProfileArn condition allows the model only through the configured profile.',
    });
  } else {
    fn.lambda.addToRolePolicy(
      new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [arn('foundation-model', modelId, '')] }),
    );
  }
  fn.lambda.addEnvironment(ENV.bedrockModelId, modelId);
  fn.lambda.addEnvironment(ENV.bedrockCallTimeoutMs, String(bedrockCallTimeoutMs(fn.timeout.toMilliseconds())));
};
