import { ensureTable, startDynamo, type LocalDynamo } from '#infra/local/dynamo-server.ts';
import { LOCAL_REGION } from '#infra/local/local-aws.ts';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';
import { createTable, type Table } from '#lib/store/table.ts';
import { builtBundles, startBundle, type RunningBundle } from './built-bundles.ts';
import type { PostOffice } from './bundle-requests.ts';
import { FAKE_RESOURCES, startFakeAws, type FakeAws } from './fake-aws.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from './fake-integration-providers.ts';
import { startRecordingProxy, type RecordingProxy } from './iam/recording-proxy.ts';
import { templateFunctions, type TemplateFunction } from './template-env.ts';

const TABLE_NAME = 'bundles-with-template-env';

/**
 * Every built bundle running in a process of its own with the template's environment, against the embedded
 * DynamoDB and SQS (each behind a proxy that records its requests on the wire), the fake AWS endpoint, and
 * the fake OAuth providers, which the integration providers' secret names as a deployer's settings would.
 */
export interface BundleStack {
  aws: FakeAws;
  sqs: LocalSqs;
  providers: FakeIntegrationProviders;
  /**
   * The table itself, past the recording proxy: for a test to age what the bundles wrote (time passing),
   * not for the bundles' own calls.
   */
  table: Table;
  dynamoWire: RecordingProxy;
  sqsWire: RecordingProxy;
  /** Each function's environment as the template sets it, resolved to this machine's resources. */
  functions: ReadonlyMap<string, TemplateFunction>;
  running: ReadonlyMap<string, RunningBundle>;
  /** Every function whose bundle was invoked at least once: each must be, or its environment goes untried. */
  invoked: ReadonlySet<string>;
  bundle(name: string): RunningBundle;
  /** The mail queue and the mail-worker bundle, for the codes sign-up waits for. */
  postOffice(): PostOffice;
  stop(): Promise<void>;
}

/** The template's environment plus, and only plus, where the SDK finds AWS and how it signs. */
const lambdaEnvironment = (
  name: string,
  template: TemplateFunction,
  endpoints: { aws: string; dynamodb: string; sqs: string },
): Record<string, string> => ({
  ...template.env,
  AWS_REGION: LOCAL_REGION,
  // The access key id names the function, so the fake endpoint can tell whose call it answers.
  AWS_ACCESS_KEY_ID: name,
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
  AWS_ENDPOINT_URL_SQS: endpoints.sqs,
  AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoints.aws,
  AWS_ENDPOINT_URL_SESV2: endpoints.aws,
  AWS_ENDPOINT_URL_S3: endpoints.aws,
  AWS_ENDPOINT_URL_API_GATEWAY: endpoints.aws,
  AWS_ENDPOINT_URL_SFN: endpoints.aws,
  AWS_ENDPOINT_URL_KMS: endpoints.aws,
  AWS_ENDPOINT_URL_SNS: endpoints.aws,
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: endpoints.aws,
});

export const startBundleStack = async (): Promise<BundleStack> => {
  const providers = await startFakeIntegrationProviders();
  const [aws, dynamo, sqs]: [FakeAws, LocalDynamo, LocalSqs] = await Promise.all([
    startFakeAws({ integrationProviders: providers.providersConfig() }),
    startDynamo(undefined),
    startSqsServer(),
  ]);
  const [dynamoWire, sqsWire] = await Promise.all([
    startRecordingProxy(dynamo.endpoint),
    startRecordingProxy(sqs.endpoint),
  ]);
  await ensureTable(dynamo.client, TABLE_NAME);
  const functions = templateFunctions({
    tableName: TABLE_NAME,
    // The SQS client sends to the queue URL's host: the proxy's, so the call is recorded on its way.
    queueUrl: (name) => sqs.queueUrl(name).replace(sqs.endpoint, sqsWire.endpoint),
    secretArn: FAKE_RESOURCES.secretArn,
    integrationProvidersSecretArn: FAKE_RESOURCES.integrationProvidersSecretArn,
    vapidSecretArn: FAKE_RESOURCES.vapidSecretArn,
    credentialsKeyArn: FAKE_RESOURCES.credentialsKeyArn,
    stateMachineArn: FAKE_RESOURCES.stateMachineArn,
    bucketName: FAKE_RESOURCES.bucketName,
    usagePlanId: FAKE_RESOURCES.usagePlanId,
    restApiId: FAKE_RESOURCES.restApiId,
    region: LOCAL_REGION,
  });
  const endpoints = { aws: aws.endpoint, dynamodb: dynamoWire.endpoint, sqs: sqsWire.endpoint };
  const bundles = builtBundles();
  const started = await Promise.all(
    [...functions].map(([name, template]) => startBundle(bundles, name, lambdaEnvironment(name, template, endpoints))),
  );
  const invoked = new Set<string>();
  const running = new Map(
    started.map((one): [string, RunningBundle] => [
      one.name,
      {
        ...one,
        invoke: (event) => {
          invoked.add(one.name);
          return one.invoke(event);
        },
      },
    ]),
  );
  const bundle = (name: string): RunningBundle => {
    const found = running.get(name);
    if (!found) throw new Error(`no running bundle ${name}`);
    return found;
  };
  return {
    aws,
    sqs,
    providers,
    table: createTable({ name: TABLE_NAME, client: dynamo.client }),
    dynamoWire,
    sqsWire,
    functions,
    running,
    invoked,
    bundle,
    postOffice: () => ({ aws, sqs, mailWorker: bundle('mail-worker') }),
    stop: async () => {
      await Promise.all([...running.values()].map((one) => one.stop()));
      await Promise.all([aws.stop(), providers.stop(), dynamoWire.stop(), sqsWire.stop()]);
      await Promise.all([sqs.close(), dynamo.close()]);
    },
  };
};
