import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { startLocalWorkers } from '#infra/local/local-workers.ts';
import { sweepPendingSignals, PENDING_GRACE_MS } from '#lib/correlation/sweep.ts';
import { installPorts, portsOf } from '#lib/ports/port-set.ts';
import { allRoutes } from '#lib/routes/index.ts';
import { correlationSweep } from '#lib/workers/correlation-sweep.ts';
import { recountCounters } from '#lib/counters/recount-counters.ts';
import { counterRecount } from '#lib/workers/counter-recount.ts';
import { sweepSlaDeadlines } from '#lib/incidents/sla-sweep.ts';
import { slaSweep } from '#lib/workers/sla-sweep.ts';
import { signUpBusiness } from '../support/accounts.ts';
import { startFakeIdentityProvider, type FakeIdentityProvider } from '../support/fake-identity-provider.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { createCallRecorder, type RecordedCall } from '../support/iam/call-recorder.ts';
import { functionPolicies } from '../support/iam/function-policies.ts';
import { evaluate, type PolicyStatement } from '../support/iam/policy-evaluator.ts';
import { keyWithEveryScope, type RequestContext } from '../support/iam/request-helpers.ts';
import { ROUTE_REQUESTS } from '../support/iam/route-requests.ts';
import { GENEROUS_RATE_LIMITS, startTestStack, type TestClient } from '../support/local-stack.ts';
import { inspectDefaultApp } from './template.ts';

/**
 * Grants no call of the run needs, each for a reason. Removing any other statement of any function's
 * policy must make the check report a denied call.
 */
const UNEXERCISED: Record<string, string> = {
  'sla-sweep: s3:GetObject, s3:PutObject, s3:PutObjectTagging':
    'A missed heartbeat becomes a signal through the ingestion path, which puts an event over 64 KiB in the payload ' +
    'bucket; a heartbeat signal is far smaller, so the run never needs the grant.',
  'console: logs:CreateLogStream, logs:PutLogEvents':
    'The console function serves files from its bundle and uses no port, so the run, which records calls through ' +
    'the ports, never sees it invoked; writing its own log group is its only grant (stack.test.ts checks it).',
  'route-miss: logs:CreateLogStream, logs:PutLogEvents':
    'The route-miss function answers from the route paths its bundle carries and uses no AWS service, so the run ' +
    'never sees it call one; writing its own log group is its only grant (route-miss.test.ts checks it).',
};

const describeCall = ({ fn, action, resource, context, during }: RecordedCall): string =>
  `${fn} ${action} on ${resource}${context ? ` with ${JSON.stringify(context)}` : ''} (during ${during})`;

const actionsOf = (statement: PolicyStatement): string => [statement.Action ?? []].flat().sort().join(', ');

describe('least privilege: every AWS call of every function against its IAM policy in the template', () => {
  const policies = functionPolicies(inspectDefaultApp());
  const recorder = createCallRecorder(policies);
  let client: TestClient;
  let provider: FakeIdentityProvider;
  let integrations: FakeIntegrationProviders;
  const missing: string[] = [];
  const failed: string[] = [];
  let calls: RecordedCall[] = [];

  const deniedUnder = (name: string, statements: readonly PolicyStatement[]): RecordedCall[] =>
    calls.filter((call) => call.fn === name && evaluate(statements, call) !== 'allowed');

  beforeAll(async () => {
    provider = await startFakeIdentityProvider();
    integrations = await startFakeIntegrationProviders();
    client = await startTestStack(':memory:', GENEROUS_RATE_LIMITS, {
      oauthProviders: provider.providersConfig(),
      integrationProviders: integrations.providersConfig(),
    });
    installPorts(client.stack.ports, { observe: recorder.observe });
    recorder.during('sign-up');
    const admin = await signUpBusiness(client);
    const keyHeaders = await keyWithEveryScope(client, admin);
    const context: RequestContext = { client, provider, integrations, admin, keyHeaders, ids: {} };

    for (const { group, key, route } of allRoutes()) {
      const step = `${route.method} ${route.path}`;
      recorder.during(step);
      const request = ROUTE_REQUESTS[`${group}.${key}`];
      if (!request) {
        missing.push(`no request for route ${group}.${key} (${step})`);
        continue;
      }
      for (const reply of [await request(context)].flat()) {
        if (reply.status >= 300) failed.push(`${step}: ${reply.status} ${reply.text.slice(0, 300)}`);
      }
    }

    recorder.during('correlation sweep');
    await sweepPendingSignals(
      systemAccountScope(portsOf(correlationSweep)),
      new Date(Date.now() + 2 * PENDING_GRACE_MS),
    );
    recorder.during('SLA sweep');
    await sweepSlaDeadlines(systemAccountScope(portsOf(slaSweep)), new Date(Date.now() + 24 * 60 * 60_000));
    recorder.during('counter recount');
    await recountCounters(systemAccountScope(portsOf(counterRecount)));
    recorder.during('queue workers');
    const workers = startLocalWorkers(client.stack.queues, { slaSweepMs: 60_000 });
    await workers.idle();
    await workers.stop();
    calls = recorder.calls();
  }, 120_000);

  afterAll(async () => {
    await client?.stack.stop();
    await provider?.stop();
    await integrations?.stop();
  });

  it('drives a successful representative request of every built route, and the queue workers', () => {
    expect(missing).toEqual([]);
    expect(failed).toEqual([]);
    expect(recorder.problems).toEqual([]);
    const ran = new Set(calls.map(({ fn }) => fn));
    for (const worker of [
      'ingestion-worker',
      'correlation-worker',
      'correlation-sweep',
      'sla-sweep',
      'notification-worker',
    ]) {
      expect(ran).toContain(worker);
    }
  });

  it('finds every call allowed by the policy the template gives that function', () => {
    const denied = [...policies.keys()].flatMap((name) =>
      deniedUnder(name, policies.get(name)?.statements ?? []).map(describeCall),
    );
    expect(denied).toEqual([]);
  });

  it('reports a denied call when any statement a call needs is removed from a policy', () => {
    const unexercised: string[] = [];
    const denyingActions = new Set<string>();
    for (const [name, { statements }] of policies) {
      statements.forEach((statement, index) => {
        // Lambda's runtime writes the traces, not the function's code: no recorded call needs X-Ray's grant.
        if ([statement.Action ?? []].flat().every((action) => action.startsWith('xray:'))) return;
        const denied = deniedUnder(
          name,
          statements.filter((_, other) => other !== index),
        );
        if (denied.length === 0) unexercised.push(`${name}: ${actionsOf(statement)}`);
        for (const call of denied) denyingActions.add(call.action);
      });
    }
    expect(unexercised.sort()).toEqual(Object.keys(UNEXERCISED).sort());
    // Every kind of binding: table reads and writes, limiter windows, queues, mail, signing keys,
    // objects, the usage plan, logs and queue consumption.
    expect([...denyingActions].sort()).toEqual(
      expect.arrayContaining([
        'apigateway:DELETE',
        'apigateway:PATCH',
        'apigateway:POST',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'logs:PutLogEvents',
        's3:GetObject',
        's3:PutObject',
        's3:PutObjectTagging',
        'secretsmanager:GetSecretValue',
        'ses:SendEmail',
        'kms:Decrypt',
        'kms:GenerateDataKey',
        'sns:Publish',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
      ]),
    );
  });
});
