import { HIGH_INCIDENT_POLICY } from '../sla/support.ts';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionNames } from '#infra/bundling.ts';
import { ANALYSIS_STAGES } from '#lib/analysis/analysis.ts';
import { CONSOLE_ASSETS, consoleAssetPath } from '#lib/console-site/console-site.ts';
import { contentTypeOf } from '#lib/http/content-types.ts';
import { MAX_MESSAGE_BYTES } from '#lib/ports/queue/queue.ts';
import { MAX_EVENTS_STORED_WHILE_WAITING } from '#lib/ingestion/ingest-delivery.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';
import {
  apiKeyThroughBundle,
  confirmThroughBundle,
  connectThroughBundle,
  gatewayEvent,
  send,
  sesRecipients,
  signUpThroughBundle,
} from '../support/bundle-requests.ts';
import { drainQueueTo } from '../support/bundle-queues.ts';
import { CORRELATION_LANES } from '#lib/signals/correlation-lane.ts';
import {
  alertStorm,
  eventQueuedTenMinutesAgo,
  missHeartbeat,
  passResponseDeadline,
} from '../support/bundle-worker-events.ts';
import { serveEveryGroup } from '../support/bundle-routes.ts';
import { startBundleStack, type BundleStack } from '../support/bundle-stack.ts';
import {
  judgeSdkCalls,
  judgedAsDeployed,
  requestsUnseenByTheMiddleware,
  unreadVariables,
} from '../support/iam/bundle-proof.ts';
import { functionPolicies } from '../support/iam/function-policies.ts';
import { inspectDefaultApp } from './template.ts';

/**
 * The AWS path is part of "works": every built bundle, imported with exactly the environment the
 * synthesized template gives its function, serves one request of each of its routes and runs each worker
 * against the embedded stack. Only the SDK's endpoints, credentials and region are added to the template's
 * environment, so a missing variable, grant or resource shows here: every command every SDK client of a
 * bundle sends is recorded at the client (test/support/iam/sdk-calls.ts) and judged, resource and condition
 * keys included, against the synthesized policy of that function (docs/testing.md, "The least-privilege proof").
 */

const policies = functionPolicies(inspectDefaultApp());
let stack: BundleStack;
const bundle = (name: string) => stack.bundle(name);
/** Both correlation lanes to the correlation worker, as their two event source mappings would. */
const drainCorrelation = async (): Promise<string[]> => {
  const bodies: string[] = [];
  for (const lane of CORRELATION_LANES) bodies.push(...(await drainQueueTo(stack, lane, 'correlation-worker')));
  return bodies;
};

beforeAll(async () => {
  stack = await startBundleStack();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('every built bundle with exactly the environment the template gives it', () => {
  it('is a function of the stack, and every function of the stack is a bundle', () => {
    expect([...stack.functions.keys()].sort()).toEqual(functionNames().sort());
  });

  it('serves one request of each route of its group without a 5xx', async () => {
    const { failures, requests } = await serveEveryGroup(stack, bundle('api-keys'));
    expect(failures).toEqual({});
    expect(requests).toBe(ROUTE_GROUPS.reduce((count, group) => count + Object.keys(group.routes).length, 0));
  }, 90_000);

  it('runs each worker on a realistic event', async () => {
    const caller = await signUpThroughBundle(bundle('auth'), stack.postOffice(), 'workers');
    const { workspaceId } = caller;
    // The reset e-mail links to the console, at the app's URL.
    const reset = await send(bundle('auth'), 'POST', '/api/v1/auth/forgot-password', { email: caller.email });
    expect(reset.status).toBe(200);
    // Incident events are e-mailed to the alert address too, with links to act on them; a HIGH one is under an SLA.
    // Both addresses are outside the members: the business and sla-policies bundles mail each a confirmation.
    const ims = { alertEmail: 'oncall@example.com', timezone: 'UTC', slaEnabled: true };
    expect((await send(bundle('business'), 'POST', '/api/v1/ims/setup', ims, caller.bearer)).status).toBeLessThan(300);
    const policy = { ...HIGH_INCIDENT_POLICY, escalationContact: 'duty@example.com' };
    const governing = await send(bundle('sla-policies'), 'POST', '/api/v1/sla-policies', policy, caller.bearer);
    expect(governing.status).toBe(201);
    for (const address of [ims.alertEmail, policy.escalationContact]) {
      await confirmThroughBundle(bundle('business'), stack.postOffice(), address);
    }
    // A HIGH incident's notification opens a war room through the connected video tool, with its sealed tokens.
    await connectThroughBundle(bundle('integrations'), caller, 'videomeet');

    // Over 100 alerts are answered once queued; one is over SQS's 256 KiB and goes by the payload bucket.
    const keyHeaders = await apiKeyThroughBundle(bundle('api-keys'), caller);
    const alerting = alertStorm(MAX_EVENTS_STORED_WHILE_WAITING + 1, MAX_MESSAGE_BYTES);
    const ingested = await send(bundle('ingestion'), 'POST', '/api/v1/ingestion/metrics-alerts', alerting, keyHeaders);
    expect(ingested.status).toBe(202);

    // An event the table refused ten minutes ago (its id is of that time), whose correlation message was lost: the
    // sweep sends it again.
    const { signalId, message } = eventQueuedTenMinutesAgo(workspaceId);
    await stack.sqs.client.send(
      new SendMessageCommand({ QueueUrl: stack.sqs.queueUrl('ingestion'), MessageBody: message }),
    );
    // Two alerts of one source: the first goes ahead of any backlog (correlation-first), the second behind it.
    for (const name of ['Checkout errors', 'Checkout saturation']) {
      const posted = { name, source: 'probe', severity: 'HIGH' };
      expect((await send(bundle('signals'), 'POST', '/api/v1/signals', posted, caller.bearer)).status).toBe(201);
    }
    // A signal the table refuses for capacity, past the SDK's retries, goes on the ingestion queue instead.
    const release = stack.dynamoWire.throttle('signals', 'DynamoDB_20120810.PutItem');
    const signal = { name: 'Checkout latency', source: 'probe', severity: 'HIGH' };
    const refused = await send(bundle('signals'), 'POST', '/api/v1/signals', signal, caller.bearer);
    release();
    expect(refused.status).toBe(202);
    const queued = await drainQueueTo(stack, 'ingestion', 'ingestion-worker');
    expect(queued).toHaveLength(alerting.alerts.length + 2);
    expect(Math.max(...queued.map((body) => Buffer.byteLength(body)))).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(queued.filter((body) => JSON.parse(body).eventObject)).toHaveLength(1);

    const scheduled = {
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      detail: {},
    };
    await expect(bundle('correlation-sweep').invoke(scheduled)).resolves.toBeUndefined();
    const correlated = await drainCorrelation();
    expect(correlated.filter((body) => JSON.parse(body).signalId === signalId)).toHaveLength(2);
    await expect(bundle('counter-recount').invoke(scheduled)).resolves.toBeUndefined();

    const incident = await send(
      bundle('incidents'),
      'POST',
      '/api/v1/incident-ticket',
      { summary: 'Checkout errors', priority: 'HIGH' },
      caller.bearer,
    );
    // Nobody acknowledged it in time: the sweep records the breach and queues its alert.
    await passResponseDeadline(stack.table, workspaceId, incident.body?.data?.id);
    // Three jobs that never pinged their heartbeats: the sweep raises each as an alert through correlation (the
    // first two in one run, so the second goes behind the first), the third while the table refuses it for
    // capacity, so it waits on the ingestion queue like any refused alert.
    const missedHeartbeat = async (name: string) => {
      const body = { name, intervalSeconds: 60, graceSeconds: 60, priority: 'HIGH' };
      const created = await send(bundle('heartbeats'), 'POST', '/api/v1/heartbeats', body, caller.bearer);
      expect(created.status).toBe(201);
      await missHeartbeat(stack.table, workspaceId, created.body?.data?.id);
    };
    await missedHeartbeat('Nightly backup');
    await missedHeartbeat('Weekly report');
    // A rotation whose first turn starts now: the sweep mails its member they are on call (docs/on-call.md), and
    // leaves the notice to a later sweep while the table refuses its claim.
    const rotation = {
      name: 'Checkout',
      timezone: 'UTC',
      layers: [
        { start: new Date().toISOString(), rotationType: 'weekly', handoffTime: '09:00', members: [caller.userId] },
      ],
    };
    expect((await send(bundle('schedules'), 'POST', '/api/v1/schedules', rotation, caller.bearer)).status).toBe(201);
    // An escalation policy whose second level is an address outside the members: the schedules bundle mails it
    // a confirmation (docs/security.md, "Who a page may reach").
    const escalation = {
      name: 'Checkout',
      levels: [
        { delayMinutes: 0, targets: [{ type: 'member', id: caller.userId }] },
        { delayMinutes: 5, targets: [{ type: 'email', address: 'lead@example.com' }] },
      ],
    };
    const policyReply = await send(
      bundle('schedules'),
      'POST',
      '/api/v1/escalation-policies',
      escalation,
      caller.bearer,
    );
    expect(policyReply.status).toBe(201);
    await expect(bundle('sla-sweep').invoke(scheduled)).resolves.toBeUndefined();
    await missedHeartbeat('Hourly export');
    const releaseSweep = stack.dynamoWire.throttle('sla-sweep', 'DynamoDB_20120810.PutItem');
    await expect(bundle('sla-sweep').invoke(scheduled)).resolves.toBeUndefined();
    releaseSweep();
    const refusedHeartbeat = (await drainQueueTo(stack, 'ingestion', 'ingestion-worker')).map((body) =>
      JSON.parse(body),
    );
    expect(refusedHeartbeat.map(({ event }) => event.signal.name)).toEqual(['Heartbeat missed: Hourly export']);
    expect(await drainCorrelation()).toHaveLength(3);
    // The notifications queued so far (the incident's and its breach among them), then the e-mails they queued.
    const notified = (await drainQueueTo(stack, 'notifications', 'notification-worker')).map((body) =>
      JSON.parse(body),
    );
    expect(notified).toContainEqual(expect.objectContaining({ incidentId: incident.body?.data?.id, event: 'OPENED' }));
    expect(notified).toContainEqual(
      expect.objectContaining({ incidentId: incident.body?.data?.id, event: 'RESPONSE_BREACHED' }),
    );
    // The worker sends a notification without its war room when the video tool fails: its log says why.
    const atProviders = stack.providers.requests.map(({ method, path }) => `${method} ${path}`);
    expect(atProviders, bundle('notification-worker').output().slice(-4000)).toContain('POST /videomeet/api/meetings');
    // The outboxes log a mail they could not queue and go on, so only SES's calls show the mail was sent.
    await drainQueueTo(stack, 'mail', 'mail-worker');
    const mailedTo = sesRecipients(stack.aws);
    expect(mailedTo).toEqual(expect.arrayContaining([ims.alertEmail, policy.escalationContact]));
    // The verification code, the reset e-mail, then the handoff notice.
    // Once seen with 2 of the 3 (not reproduced): the message names what was mailed and what the sweep logged.
    const mailed = `${mailedTo.join(', ')}\n${bundle('sla-sweep').output().slice(-4000)}`;
    expect(
      mailedTo.filter((to) => to === caller.email),
      mailed,
    ).toHaveLength(3);

    // The analysis of the incident the alert storm opened, over a hundred signals (one of them over 256 KiB) that
    // stay in the table: the execution's input, and every state after it, is the four ids.
    const listed = await send(bundle('incidents'), 'GET', '/api/v1/incident-ticket', undefined, caller.bearer);
    const storm = (listed.body.data as { id: string }[]).find(({ id }) => id !== incident.body?.data?.id);
    expect(storm).toBeDefined();
    const analysis = await send(
      bundle('assistant'),
      'POST',
      '/api/v1/assistant/analyse',
      { incidentId: storm?.id },
      caller.bearer,
    );
    expect(analysis.status).toBe(202);
    const started = bundle('assistant').sdkCalls.findLast(({ command }) => command === 'StartExecution');
    const input = String(started?.input.input);
    expect(Buffer.byteLength(input)).toBeLessThan(1024);
    const state = JSON.parse(input);
    expect(state).toEqual({
      workspaceId,
      analysisId: analysis.body?.data?.analysisId,
      incidentId: storm?.id,
      requestedAt: expect.any(String),
    });
    for (const stage of ANALYSIS_STAGES) {
      await expect(bundle('analysis-worker').invoke({ stage, input: state }), stage).resolves.toEqual(state);
    }
    // A second analysis whose execution timed out: the rule on unfinished executions hands it to the worker.
    const second = await send(
      bundle('assistant'),
      'POST',
      '/api/v1/assistant/analyse',
      { incidentId: incident.body?.data?.id },
      caller.bearer,
    );
    expect(second.status).toBe(202);
    const timedOut = { ...state, analysisId: second.body?.data?.analysisId, incidentId: incident.body?.data?.id };
    const ended = {
      'detail-type': 'Step Functions Execution Status Change',
      detail: { status: 'TIMED_OUT', input: JSON.stringify(timedOut), error: null, cause: null },
    };
    await expect(bundle('analysis-worker').invoke(ended)).resolves.toEqual(timedOut);

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
    expect(unkeyed.usageIdentifierKey).toBe(stack.functions.get('api-key-authorizer')?.env.UNKEYED_USAGE_KEY);
  }, 90_000);

  it("registers a code host's webhook with a key of its own, through a connection made at the OAuth callback", async () => {
    const caller = await signUpThroughBundle(bundle('auth'), stack.postOffice(), 'hooks');
    await connectThroughBundle(bundle('integrations'), caller, 'codehost-a');
    const hook = { repoFullName: 'acme/api', events: ['push'] };
    const path = '/api/v1/integrations/codehost-a/webhook';
    const registered = await send(bundle('integrations'), 'POST', path, hook, caller.bearer);
    expect(registered.status, bundle('integrations').output().slice(-4000)).toBe(201);
    // The host delivers to the stage's URL, which only the template knows.
    const apiUrl = stack.functions.get('integrations')?.env.API_URL?.replace(/\/+$/, '');
    expect(registered.body.data.deliveryUrl).toBe(`${apiUrl}/api/v1/ingestion/codehost-a`);
    expect(stack.aws.calls.filter(({ caller }) => caller === 'integrations').map(({ operation }) => operation)).toEqual(
      expect.arrayContaining(['CreateApiKey', 'CreateUsagePlanKey']),
    );
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
      const file = await get(consoleAssetPath(asset));
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
    expect([...stack.invoked].sort()).toEqual([...stack.functions.keys()].sort());
  });

  it('read every variable the template gives its function', () => {
    // The variables no realistic run reads. The SLA sweep's bucket, for the reason the least-privilege proof gives
    // its grant: a missed heartbeat's signal metadata would go there only past 64 KiB. The console's URL, which
    // the mail need gives every mailer: the schedules and SLA policies functions mail only an outside address's
    // confirmation, whose link is the API's as the caller reached it (issue 48; to be narrowed, docs/security.md).
    // And the VAPID seed, read by the worker's first push: a bundle has Lambda's outbound guard, which reaches push
    // services only (none answers offline), never the local stand-in; test/infra/least-privilege.test.ts sends
    // a push through the stand-in and judges that read against the worker's grant.
    // And the integrations function's notifications queue, which only a chat button press that acts sends to: the
    // probe's unsigned press is a 401; test/infra/least-privilege.test.ts presses one signed, as a linked member,
    // and judges the send against the function's grant.
    expect(unreadVariables(stack)).toEqual([
      'integrations: NOTIFICATIONS_QUEUE_URL',
      'notification-worker: VAPID_SECRET_ARN',
      'schedules: APP_URL',
      'sla-policies: APP_URL',
      'sla-sweep: PAYLOAD_BUCKET_NAME',
    ]);
  });

  it("sent only SDK commands its function's policy allows, resources and condition keys included", () => {
    const { denied, unmapped } = judgeSdkCalls(stack.running, policies, judgedAsDeployed(stack.functions, policies));
    expect(unmapped).toEqual([]);
    expect(denied).toEqual([]);
    const sent = new Set([...stack.running.values()].flatMap(({ sdkCalls }) => sdkCalls.map((call) => call.command)));
    const expected = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchWriteItem', 'SendMessageBatch'];
    expected.push('GetSecretValue', 'SendEmail', 'PutObject', 'GetObject', 'StartExecution');
    expected.push('GenerateDataKey', 'Decrypt');
    expected.push('CreateApiKey', 'CreateUsagePlanKey', 'UpdateApiKey', 'DeleteUsagePlanKey', 'DeleteApiKey');
    expect([...sent]).toEqual(expect.arrayContaining(expected));
  });

  it('sent every AWS request through a client the recording middleware sees', () => {
    const unseen = requestsUnseenByTheMiddleware(stack);
    expect(unseen).toEqual([]);
    expect(stack.dynamoWire.calls.length).toBeGreaterThan(100);
    expect(stack.aws.calls.length).toBeGreaterThan(10);
  });
});
