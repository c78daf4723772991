/**
 * The environment variables a function may receive from the stack. Each port need (see need.ts) reads
 * its own, and the stack sets exactly the ones the function's needs name.
 */
export const ENV = {
  table: 'TABLE_NAME',
  ingestionQueueUrl: 'INGESTION_QUEUE_URL',
  correlationQueueUrl: 'CORRELATION_QUEUE_URL',
  correlationFirstQueueUrl: 'CORRELATION_FIRST_QUEUE_URL',
  mailQueueUrl: 'MAIL_QUEUE_URL',
  notificationsQueueUrl: 'NOTIFICATIONS_QUEUE_URL',
  analysisStateMachineArn: 'ANALYSIS_STATE_MACHINE_ARN',
  mailFrom: 'MAIL_FROM',
  appUrl: 'APP_URL',
  allowedOrigins: 'ALLOWED_ORIGINS',
  jwtSecretArn: 'JWT_SECRET_ARN',
  vapidSecretArn: 'VAPID_SECRET_ARN',
  rateLimits: 'RATE_LIMITS',
  usagePlanId: 'USAGE_PLAN_ID',
  unkeyedUsageKey: 'UNKEYED_USAGE_KEY',
  payloadBucket: 'PAYLOAD_BUCKET_NAME',
  oauthProviders: 'OAUTH_PROVIDERS',
  integrationProvidersSecretArn: 'INTEGRATION_PROVIDERS_SECRET_ARN',
  apiUrl: 'API_URL',
  credentialsKeyId: 'CREDENTIALS_KEY_ID',
  metricsNamespace: 'METRICS_NAMESPACE',
  serviceName: 'SERVICE_NAME',
  bedrockModelId: 'BEDROCK_MODEL_ID',
  outboundPrivateNetworks: 'OUTBOUND_PRIVATE_NETWORKS',
  bedrockCallTimeoutMs: 'BEDROCK_CALL_TIMEOUT_MS',
} as const;

export type Env = Readonly<Record<string, string | undefined>>;

export const requiredEnv = (env: Env, name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
};
