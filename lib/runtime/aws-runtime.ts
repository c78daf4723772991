import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { createTable } from '#lib/store/table.ts';
import { createSqsQueue } from '#lib/ports/queue/sqs-queue.ts';
import { createStepFunctionsWorkflow } from '#lib/ports/workflow/step-functions-workflow.ts';
import { createSesMailer } from '#lib/ports/mail/ses-mailer.ts';
import { createS3ObjectStore } from '#lib/ports/object-store/s3-object-store.ts';
import { systemClock } from '#lib/ports/clock.ts';
import { createIds } from '#lib/ports/ids.ts';
import { createSecretsManagerSigningKeys } from '#lib/ports/signing-keys/secrets-manager-signing-keys.ts';
import { createApiGatewayUsagePlan } from '#lib/ports/usage-plan/api-gateway-usage-plan.ts';
import { parseRateLimits } from '#lib/rate-limit/rate-limit-settings.ts';
import { createHttpIdentityProviderClient } from '#lib/ports/identity-provider/http-identity-provider.ts';
import { parseOAuthProviders } from '#lib/accounts/oauth-providers.ts';
import type { Runtime } from './runtime.ts';

/**
 * The environment each function receives from the stack. Only TABLE_NAME is needed by every function;
 * the others are granted to the functions that use them and are checked when first used.
 */
export const ENV = {
  table: 'TABLE_NAME',
  ingestionQueueUrl: 'INGESTION_QUEUE_URL',
  correlationQueueUrl: 'CORRELATION_QUEUE_URL',
  analysisStateMachineArn: 'ANALYSIS_STATE_MACHINE_ARN',
  mailFrom: 'MAIL_FROM',
  jwtSecretArn: 'JWT_SECRET_ARN',
  rateLimits: 'RATE_LIMITS',
  usagePlanId: 'USAGE_PLAN_ID',
  payloadBucket: 'PAYLOAD_BUCKET_NAME',
  oauthProviders: 'OAUTH_PROVIDERS',
} as const;

type Env = Record<string, string | undefined>;

const required = (env: Env, name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
};

export const createAwsRuntime = (env: Env): Runtime => {
  const clock = systemClock;
  return {
    mode: 'aws',
    table: createTable({ name: required(env, ENV.table) }),
    queue: createSqsQueue(new SQSClient({}), (queue) =>
      required(env, queue === 'ingestion' ? ENV.ingestionQueueUrl : ENV.correlationQueueUrl),
    ),
    workflow: createStepFunctionsWorkflow(new SFNClient({}), () => required(env, ENV.analysisStateMachineArn)),
    mail: createSesMailer(new SESv2Client({}), () => required(env, ENV.mailFrom)),
    objects: createS3ObjectStore(new S3Client({}), () => required(env, ENV.payloadBucket)),
    signingKeys: createSecretsManagerSigningKeys(new SecretsManagerClient({}), () => required(env, ENV.jwtSecretArn)),
    usagePlan: createApiGatewayUsagePlan(new APIGatewayClient({}), () => required(env, ENV.usagePlanId)),
    rateLimits: parseRateLimits(env[ENV.rateLimits]),
    identityProvider: createHttpIdentityProviderClient(),
    oauthProviders: parseOAuthProviders(env[ENV.oauthProviders]),
    clock,
    ids: createIds(clock),
  };
};
