import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo, type LocalDynamo } from '#infra/local/dynamo-server.ts';
import { LOCAL_REGION } from '#infra/local/local-aws.ts';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';
import type { RouteGroup, RouteSpec } from '#lib/http/route.ts';
import { systemClock } from '#lib/ports/clock.ts';
import { createIds } from '#lib/ports/ids.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';
import { functionNames } from '#infra/bundling.ts';
import { builtBundles, startBundle, type RunningBundle } from '../support/built-bundles.ts';
import {
  apiKeyThroughBundle,
  gatewayEvent,
  send,
  signUpThroughBundle,
  sqsRecord,
  type BundleCaller,
} from '../support/bundle-requests.ts';
import { FAKE_RESOURCES, startFakeAws, type FakeAws } from '../support/fake-aws.ts';
import { samplePart, samplePath, sampleQuery } from '../support/route-samples.ts';
import { templateFunctions, type TemplateFunction } from '../support/template-env.ts';
import { dynamoWireRequests } from '../support/iam/dynamo-requests.ts';
import { functionPolicies } from '../support/iam/function-policies.ts';
import { evaluate, type IamRequest } from '../support/iam/policy-evaluator.ts';
import { startRecordingProxy, type RecordingProxy, type WireCall } from '../support/iam/recording-proxy.ts';
import { TEST_DEPLOYMENT } from '../support/iam/template-resolver.ts';
import { buildApp } from './template.ts';
import { ENV } from '#lib/ports/env.ts';
import { CONSOLE_ASSET_DIR, CONSOLE_ASSETS } from '#lib/console-site/console-site.ts';
import { QUEUE_NAMES } from '#lib/ports/queue/queue.ts';
import { QUEUE_URL_ENV } from '#lib/ports/queue/queue-need.ts';
import { contentTypeOf } from '#lib/http/content-types.ts';

/**
 * The AWS path is part of "works": every built bundle, imported with exactly the environment the
 * synthesized template gives its function, serves one request of each of its routes against the embedded
 * stack, and every call it makes to AWS is one its role allows. Only the SDK's endpoints, credentials and
 * region are added to the template's environment, so a missing variable, grant or resource shows here.
 */

const TABLE_NAME = 'bundles-with-template-env';

/**
 * Fields the schemas alone do not say how to fill (a time of day, a time zone, one field of many):
 * merged over the derived sample, so these routes get past validation to their services.
 */
const BODY_OVERRIDES: Record<string, Record<string, unknown>> = {
  'incidents.updateIncident': { summary: 'Probe summary' },
  'problems.updateProblem': { title: 'Probe title' },
  'correlation-rules.updateRule': { name: 'Probe rule' },
  'on-call.assignMember': { startTime: '09:00', endTime: '17:00' },
  'business.setupIms': { timezone: 'UTC' },
  'business.updateImsConfig': { timezone: 'UTC' },
  'business.updateSsoSettings': { domains: ['example.com'] },
  'ingestion.ingestWebhook': { source: 'probe', title: 'Probe alert', severity: 'high', status: 'firing' },
  // Past the size a signal item keeps inline: the metadata goes to the payload bucket, and reads come back from it.
  'signals.createSignal': { metadata: { log: 'x'.repeat(20 * 1024) } },
};

/** The ingestion routes' payloads are the senders' own; one real payload per route, from test/fixtures. */
const FIXTURE_BODIES: Record<string, string> = {
  'ingestion.ingestCodehostA': 'codehost-a/workflow_run.completed.0.json',
  'ingestion.ingestCodehostB': 'codehost-b/pipeline.json',
  'ingestion.ingestCodehostC': 'codehost-c/docs-01-workflow-completed-github-oauth-bitbucket-cloud.json',
  'ingestion.ingestOrchestrator': 'orchestrator/event-02-Normal-Scheduled-Pod.json',
  'ingestion.ingestPaging': 'paging/v2-01-incident_trigger.json',
  'ingestion.ingestMetricsAlerts': 'metrics-alerts/captured-firing-2alerts.json',
};

const fixtureBody = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/ingestion/${file}`, import.meta.url), 'utf8'));

/** The names by which a group's routes refer to the entity it created last, in paths and in bodies. */
const ENTITY_ID_NAMES = ['id', 'ticketId', 'incidentId'];

let aws: FakeAws;
let dynamo: LocalDynamo;
let sqs: LocalSqs;
/** Every DynamoDB and SQS request the bundles send, recorded on the wire on its way to the local servers. */
let dynamoWire: RecordingProxy;
let sqsWire: RecordingProxy;
const policies = functionPolicies(buildApp());
let functions: ReadonlyMap<string, TemplateFunction>;
const running = new Map<string, RunningBundle>();
/** Every function whose bundle was invoked at least once: each must be, or its environment goes untried. */
const invoked = new Set<string>();

/** The template's environment plus, and only plus, where the SDK finds AWS and how it signs. */
const lambdaEnvironment = (name: string, template: TemplateFunction): Record<string, string> => ({
  ...template.env,
  AWS_REGION: LOCAL_REGION,
  // The access key id names the function, so the fake endpoint can tell whose call it answers.
  AWS_ACCESS_KEY_ID: name,
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_ENDPOINT_URL_DYNAMODB: dynamoWire.endpoint,
  AWS_ENDPOINT_URL_SQS: sqsWire.endpoint,
  AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.endpoint,
  AWS_ENDPOINT_URL_SESV2: aws.endpoint,
  AWS_ENDPOINT_URL_S3: aws.endpoint,
  AWS_ENDPOINT_URL_API_GATEWAY: aws.endpoint,
  AWS_ENDPOINT_URL_SFN: aws.endpoint,
  AWS_ENDPOINT_URL_KMS: aws.endpoint,
  AWS_ENDPOINT_URL_SNS: aws.endpoint,
});

const postOffice = () => ({ aws, sqs, mailWorker: bundle('mail-worker') });

const bundle = (name: string): RunningBundle => {
  const found = running.get(name);
  if (!found) throw new Error(`no running bundle ${name}`);
  return found;
};

beforeAll(async () => {
  [aws, dynamo, sqs] = await Promise.all([startFakeAws(), startDynamo(undefined), startSqsServer()]);
  [dynamoWire, sqsWire] = await Promise.all([startRecordingProxy(dynamo.endpoint), startRecordingProxy(sqs.endpoint)]);
  await ensureTable(dynamo.client, TABLE_NAME);
  functions = templateFunctions({
    tableName: TABLE_NAME,
    // The SQS client sends to the queue URL's host: the proxy's, so the call is recorded on its way.
    queueUrl: (name) => sqs.queueUrl(name).replace(sqs.endpoint, sqsWire.endpoint),
    secretArn: FAKE_RESOURCES.secretArn,
    integrationProvidersSecretArn: FAKE_RESOURCES.integrationProvidersSecretArn,
    credentialsKeyArn: FAKE_RESOURCES.credentialsKeyArn,
    stateMachineArn: FAKE_RESOURCES.stateMachineArn,
    bucketName: FAKE_RESOURCES.bucketName,
    usagePlanId: FAKE_RESOURCES.usagePlanId,
    restApiId: FAKE_RESOURCES.restApiId,
    region: LOCAL_REGION,
  });
  const bundles = builtBundles();
  const started = await Promise.all(
    [...functions].map(([name, template]) => startBundle(bundles, name, lambdaEnvironment(name, template))),
  );
  for (const one of started) {
    const { invoke } = one;
    running.set(one.name, {
      ...one,
      invoke: (event) => {
        invoked.add(one.name);
        return invoke(event);
      },
    });
  }
}, 120_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((running) => running.stop()));
  await Promise.all([aws?.stop(), dynamoWire?.stop(), sqsWire?.stop()]);
  await Promise.all([sqs?.close(), dynamo?.close()]);
});

/** Which auth a route's request carries: a Bearer token, or for ingestion-only routes an API key. */
const credentialsFor = (auth: string, caller: BundleCaller, apiKey: Record<string, string>): Record<string, string> => {
  if (auth === 'public') return {};
  return auth === 'apiKey' ? apiKey : caller.bearer;
};

interface Served {
  route: string;
  status: number;
  message: unknown;
}

const isCreate = (route: RouteSpec): boolean => route.method === 'POST' && !route.path.includes(':');

/** Creates first and deletes last, so the routes between them find the entity the group created. */
const probeOrder = (routes: Record<string, RouteSpec>): [string, RouteSpec][] => {
  const entries = Object.entries(routes);
  const deletes = entries.filter(([, route]) => route.method === 'DELETE');
  const creates = entries.filter(([, route]) => isCreate(route));
  return [...creates, ...entries.filter((entry) => !creates.includes(entry) && !deletes.includes(entry)), ...deletes];
};

const bodyFor = (group: string, key: string, route: RouteSpec, known: Record<string, string>): unknown => {
  if (route.method === 'GET' || route.method === 'DELETE') return undefined;
  const fixture = FIXTURE_BODIES[`${group}.${key}`];
  if (fixture) return fixtureBody(fixture);
  const sample = { ...(samplePart(route.request?.body) as object) } as Record<string, unknown>;
  for (const name of Object.keys(sample)) if (known[name]) sample[name] = known[name];
  return { ...sample, ...BODY_OVERRIDES[`${group}.${key}`] };
};

/**
 * One request per route of the group by a caller of its own workspace. A route naming an entity by id,
 * in its path or body, gets the one the group's last create answered (so a get, update, export or delete
 * finds something); `userId` is the caller's own.
 */
const serveGroup = async (group: RouteGroup, apiKeys: RunningBundle): Promise<Served[]> => {
  const caller = await signUpThroughBundle(bundle('auth'), postOffice(), group.name);
  const apiKey = await apiKeyThroughBundle(apiKeys, caller);
  const known: Record<string, string> = { userId: caller.userId };
  const served: Served[] = [];
  for (const [key, route] of probeOrder(group.routes)) {
    const body = bodyFor(group.name, key, route, known);
    const path = `${samplePath(route, known)}${sampleQuery(route)}`;
    const reply = await send(bundle(group.name), route.method, path, body, credentialsFor(route.auth, caller, apiKey));
    // Routes name an incident by its ticket id (INC-...), every other entity by its id.
    const id = reply.body?.data?.ticketId ?? reply.body?.data?.id;
    if (isCreate(route) && reply.status < 300 && typeof id === 'string') {
      for (const name of ENTITY_ID_NAMES) known[name] = id;
    }
    served.push({ route: `${route.method} ${route.path}`, status: reply.status, message: reply.body?.message });
  }
  return served;
};

const isFailure = ({ status }: Served): boolean => status >= 500;

describe('every built bundle with exactly the environment the template gives it', () => {
  it('is a function of the stack, and every function of the stack is a bundle', () => {
    expect([...functions.keys()].sort()).toEqual(functionNames().sort());
  });

  it('serves one request of each route of its group without a 5xx', async () => {
    const apiKeys = bundle('api-keys');
    const failures: Record<string, Served[]> = {};
    let requests = 0;
    // Two groups at a time: each signs up through the auth bundle, whose password hashing is CPU-bound.
    const queue = [...ROUTE_GROUPS];
    const worker = async (): Promise<void> => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        const served = await serveGroup(group, apiKeys);
        requests += served.length;
        const failed = served.filter(isFailure);
        if (failed.length > 0) failures[`${group.name}\n${bundle(group.name).output().slice(-4000)}`] = failed;
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual({});
    expect(requests).toBe(ROUTE_GROUPS.reduce((count, group) => count + Object.keys(group.routes).length, 0));
  }, 90_000);

  it('runs each worker on a realistic event', async () => {
    const caller = await signUpThroughBundle(bundle('auth'), postOffice(), 'workers');
    const { workspaceId } = caller;

    // A large event the ingestion route put in the payload bucket and queued by reference.
    const signalId = createIds(systemClock).sortable();
    const eventObject = `${workspaceId}/queued-events/${signalId}.json`;
    aws.putObject(
      eventObject,
      JSON.stringify({
        signal: {
          name: 'Disk almost full',
          source: 'monitoring',
          type: 'alert',
          severity: 'HIGH',
          metadata: {},
          triggeredAt: new Date().toISOString(),
        },
        fingerprint: `disk-${signalId}`,
        action: 'trigger',
      }),
    );
    const queued = { workspaceId, signalId, receivedAt: new Date().toISOString(), eventObject };
    const ingestionRecord = sqsRecord(
      { MessageId: randomUUID(), ReceiptHandle: 'r', Body: JSON.stringify(queued) },
      sqs.queueArn('ingestion'),
    );
    expect(await bundle('ingestion-worker').invoke({ Records: [ingestionRecord] })).toEqual({ batchItemFailures: [] });

    // The worker queued the stored signal for correlation: the message it sent, as Lambda would deliver it.
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({
        QueueUrl: sqs.queueUrl('correlation'),
        MaxNumberOfMessages: 10,
        AttributeNames: ['All'],
      }),
    );
    const records = Messages.map((message) => sqsRecord(message, sqs.queueArn('correlation')));
    expect(records.map((record) => JSON.parse(record.body).signalId)).toContain(signalId);
    expect(await bundle('correlation-worker').invoke({ Records: records })).toEqual({ batchItemFailures: [] });

    const scheduled = {
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      detail: {},
    };
    await expect(bundle('correlation-sweep').invoke(scheduled)).resolves.toBeUndefined();
    await expect(bundle('sla-sweep').invoke(scheduled)).resolves.toBeUndefined();
    await expect(bundle('counter-recount').invoke(scheduled)).resolves.toBeUndefined();

    // An analysis the assistant group stored and asked the state machine for: its first stage, as the Task sends it.
    const incident = await send(
      bundle('incidents'),
      'POST',
      '/api/v1/incident-ticket',
      {
        summary: 'Checkout errors',
        priority: 'HIGH',
      },
      caller.bearer,
    );
    // The notifications queued so far (the incident's among them), in batches as the queue delivers them.
    const notified: string[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.client.send(
        new ReceiveMessageCommand({
          QueueUrl: sqs.queueUrl('notifications'),
          MaxNumberOfMessages: 5,
          AttributeNames: ['All'],
        }),
      );
      if (Messages.length === 0) break;
      const batch = Messages.map((message) => sqsRecord(message, sqs.queueArn('notifications')));
      notified.push(...batch.map((record) => JSON.parse(record.body).incidentId as string));
      expect(await bundle('notification-worker').invoke({ Records: batch })).toEqual({ batchItemFailures: [] });
    }
    expect(notified).toContain(incident.body?.data?.id);

    const analysis = await send(
      bundle('assistant'),
      'POST',
      '/api/v1/assistant/analyse',
      {
        incidentId: incident.body?.data?.id,
      },
      caller.bearer,
    );
    expect(analysis.status).toBe(202);
    const state = {
      workspaceId,
      analysisId: analysis.body?.data?.analysisId,
      incidentId: incident.body?.data?.id,
      requestedAt: new Date().toISOString(),
    };
    await expect(bundle('analysis-worker').invoke({ stage: 'context-gathering', input: state })).resolves.toEqual(
      state,
    );

    // The gateway's authorizer names a key's usage-plan mirror, and anyone else's the shared unkeyed key.
    const key = (await apiKeyThroughBundle(bundle('api-keys'), caller))['x-api-key'] as string;
    const authorize = (query: Record<string, string>) =>
      bundle('api-key-authorizer').invoke({
        type: 'REQUEST',
        methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:api/dev/POST/api/v1/ingestion/webhook',
        headers: {},
        queryStringParameters: query,
      }) as Promise<{ usageIdentifierKey: string; context?: Record<string, string> }>;
    const vouched = await authorize({ apiKey: key });
    expect(vouched.usageIdentifierKey).toMatch(/^[0-9a-f]{64}$/);
    expect(vouched.context).toMatchObject({ workspaceId });
    const unkeyed = await authorize({});
    expect(unkeyed.usageIdentifierKey).toBe(functions.get('api-key-authorizer')?.env.UNKEYED_USAGE_KEY);
  });

  it("serves the console's pages and built files from its bundle, under the stage's prefix", async () => {
    const get = (path: string) =>
      bundle('console').invoke({
        httpMethod: 'GET',
        path,
        headers: {},
        requestContext: { path: `/prod${path}`, requestId: randomUUID() },
      }) as Promise<{ statusCode: number; body: string; isBase64Encoded?: boolean; headers?: Record<string, string> }>;
    const page = await get('/incidents/INC-20261127-0001');
    expect(page.statusCode).toBe(200);
    expect(Buffer.from(page.body, page.isBase64Encoded ? 'base64' : 'utf8').toString()).toContain(
      '<base href="/prod/">',
    );
    for (const asset of CONSOLE_ASSETS) {
      const file = await get(`/${CONSOLE_ASSET_DIR}/${asset}`);
      expect(file.statusCode, asset).toBe(200);
      expect(file.headers?.['content-type'], asset).toBe(contentTypeOf(asset));
      expect(file.body.length, asset).toBeGreaterThan(100);
    }
  });

  it('serves the documentation pages the docs page links from beside its bundle', async () => {
    const decisions = await bundle('docs').invoke(gatewayEvent('GET', '/api/v1/docs/decisions.md'));
    expect(decisions).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    expect((decisions as { body: string }).body).toBe(readFileSync('docs/decisions.md', 'utf8'));
    const spec = await bundle('docs').invoke(gatewayEvent('GET', '/api/v1/docs/spec/DECISIONS.md'));
    expect(spec).toMatchObject({ statusCode: 200 });
  });

  it('answers a method or path outside the route table from the routes its bundle carries', async () => {
    const miss = (httpMethod: string, path: string) =>
      bundle('route-miss').invoke({
        httpMethod,
        path,
        headers: { origin: 'https://app.acme.test' },
        requestContext: { path: `/prod${path}`, requestId: randomUUID() },
      }) as Promise<{ statusCode: number; body: string; headers: Record<string, string> }>;
    const wrongMethod = await miss('DELETE', '/api/v1/health');
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET');
    // The template allows any origin by default.
    expect(wrongMethod.headers['access-control-allow-origin']).toBe('https://app.acme.test');
    const nearMiss = await miss('POST', '/api/v1/ingestion/alertmanager');
    expect(nearMiss.statusCode).toBe(404);
    expect(JSON.parse(nearMiss.body).message).toContain('did you mean POST /api/v1/ingestion/metrics-alerts?');
  });

  it('invoked every function of the stack, each worker included', () => {
    expect([...invoked].sort()).toEqual([...functions.keys()].sort());
  });

  it("sent only DynamoDB and SQS requests its function's policy allows, keys and resources included", () => {
    const { region, account } = TEST_DEPLOYMENT;
    const policyOf = (name: string) => {
      const policy = policies.get(name);
      if (!policy) throw new Error(`no function ${name} in the template`);
      return policy;
    };
    const dynamoRequestsOf = ({ caller, target, input }: WireCall) => {
      const tableArn = `arn:aws:dynamodb:${region}:${account}:table/${policyOf(caller).env[ENV.table]}`;
      return dynamoWireRequests(target.replace(/^DynamoDB_\d+\./, ''), input, tableArn);
    };
    const sqsRequestsOf = ({ caller, target, input }: WireCall): IamRequest[] => {
      const operation = target.replace(/^AmazonSQS\./, '').replace(/Batch$/, '');
      const queue = QUEUE_NAMES.find((name) =>
        String(input.QueueUrl).endsWith(`/${sqs.queueUrl(name).split('/').at(-1)}`),
      );
      const url = queue && policyOf(caller).env[QUEUE_URL_ENV[queue]];
      // An ARN the policy cannot name when the function's environment has no URL for the queue.
      const [, queueAccount, queueName] = url
        ? new URL(url).pathname.split('/')
        : ['', account, String(input.QueueUrl)];
      return [{ action: `sqs:${operation}`, resource: `arn:aws:sqs:${region}:${queueAccount}:${queueName}` }];
    };
    const checked = [
      ...dynamoWire.calls.map((call) => ({ call, requests: dynamoRequestsOf(call) })),
      ...sqsWire.calls.map((call) => ({ call, requests: sqsRequestsOf(call) })),
    ];
    const denied = checked.flatMap(({ call, requests }) =>
      requests
        .filter((request) => evaluate(policyOf(call.caller).statements, request) !== 'allowed')
        .map(
          (request) =>
            `${call.caller} ${request.action} on ${request.resource} ${JSON.stringify(request.context ?? {})}`,
        ),
    );
    expect(denied).toEqual([]);
    // Nearly every function reads the table; the signal path and the mail outbox send to SQS.
    expect(new Set(dynamoWire.calls.map(({ caller }) => caller)).size).toBeGreaterThan(20);
    expect(sqsWire.calls.map(({ target }) => target)).toContain('AmazonSQS.SendMessageBatch');
  });

  it('made only AWS calls its function is granted', () => {
    const denied = aws.calls.flatMap((call) => {
      const granted = functions.get(call.caller)?.actions ?? new Set<string>();
      const missing = call.actions.length === 0 ? ['(not an operation our adapters call)'] : call.actions;
      return missing.some((action) => !granted.has(action)) ? [{ ...call, detail: undefined }] : [];
    });
    expect(denied).toEqual([]);
    const operations = new Set(aws.calls.map((call) => call.operation));
    const expected = ['GetSecretValue', 'SendEmail', 'CreateApiKey', 'CreateUsagePlanKey', 'PutObject', 'GetObject'];
    for (const operation of expected) {
      expect(operations, `some function called ${operation}`).toContain(operation);
    }
  });
});
