/** The stack's functions: runtime, environment, timeouts, log groups (the template, bundling skipped). */
import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';
import { functionTimeoutSeconds } from '#infra/function-timeouts.ts';
import type { Binding, FunctionDeclaration } from '#lib/ports/need.ts';
import { ENV } from '#lib/ports/env.ts';
import { QUEUE_URL_ENV } from '#lib/ports/queue/queue-need.ts';
import { analysisWorker } from '#lib/workers/analysis-worker.ts';
import { apiKeyAuthorizer } from '#lib/workers/api-key-authorizer.ts';
import { correlationSweep } from '#lib/workers/correlation-sweep.ts';
import { correlationWorker } from '#lib/workers/correlation-worker.ts';
import { counterRecount } from '#lib/workers/counter-recount.ts';
import { ingestionWorker } from '#lib/workers/ingestion-worker.ts';
import { mailWorker } from '#lib/workers/mail-worker.ts';
import { notificationWorker } from '#lib/workers/notification-worker.ts';
import { slaSweep } from '#lib/workers/sla-sweep.ts';
import { routeMiss } from '#lib/workers/route-miss.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { actionsOf, type inspect, inspectApp } from './template.ts';

let view: ReturnType<typeof inspect>;

beforeAll(() => {
  view = inspectApp();
});

const groupFunction = (name: string): ServiceFunction => {
  const fn = view.stack.groupFunctions.get(name);
  if (!fn) throw new Error(`no function for group ${name}`);
  return fn;
};
const allFunctions = (): [string, ServiceFunction][] => [...view.stack.functions];
const envOf = (fn: ServiceFunction): Record<string, unknown> =>
  view.functionResource(fn).Properties.Environment?.Variables ?? {};

/**
 * The variables each kind of need reads, which the stack must always set (lib/ports/<port>/*-need.ts): kept
 * here rather than in the needs, whose every byte is in a cold start. Settings set only when configured
 * (ALLOWED_ORIGINS, BEDROCK_MODEL_ID) are not among them.
 */
const BINDING_ENV: { [K in Binding['kind']]: (binding: Extract<Binding, { kind: K }>) => string[] } = {
  table: () => [ENV.table],
  apiKeyUsage: () => [],
  queues: ({ queues }) => queues.map((queue) => QUEUE_URL_ENV[queue]),
  workflow: () => [ENV.analysisStateMachineArn],
  mail: () => [ENV.mailQueueUrl, ENV.appUrl],
  mailDelivery: () => [ENV.mailFrom],
  signingKeys: () => [ENV.jwtSecretArn],
  pushKeys: () => [ENV.vapidSecretArn],
  usagePlan: () => [ENV.usagePlanId],
  unkeyedUsage: () => [ENV.unkeyedUsageKey],
  objects: () => [ENV.payloadBucket],
  rateLimits: () => [ENV.rateLimits],
  cors: () => [],
  oauthProviders: () => [ENV.oauthProviders],
  integrationProviders: () => [ENV.integrationProvidersSecretArn, ENV.apiUrl],
  credentialKeys: () => [ENV.credentialsKeyId],
  sms: () => [],
  metrics: () => [ENV.metricsNamespace, ENV.serviceName],
  reasoner: () => [],
  network: () => [],
};

describe('functions', () => {
  it('has one Node 22 arm64 function per route group plus the workers, the sweeps, the recount, the mail and notification workers, the authorizer, the console and the route-miss function', () => {
    view.template.resourceCountIs('AWS::Lambda::Function', view.stack.functions.size);
    expect(view.stack.functions.size).toBe(ROUTE_GROUPS.length + 11);
    expect([...view.stack.groupFunctions.keys()].sort()).toEqual(ROUTE_GROUPS.map((group) => group.name).sort());
    for (const [name, fn] of allFunctions()) {
      const { Properties } = view.functionResource(fn);
      expect(Properties.Runtime).toBe('nodejs22.x');
      expect(Properties.Architectures).toEqual(['arm64']);
      expect(Properties.Handler).toBe('index.handler');
      expect(envOf(fn).NODE_OPTIONS).toBe('--enable-source-maps');
      // The mail worker only hands queued messages to SES; the console and the route-miss function only
      // answer from their bundles.
      expect('TABLE_NAME' in envOf(fn), name).toBe(!['mail-worker', 'console', 'route-miss'].includes(name));
    }
  });

  it("sets every environment variable each function's needs read, whether or not a test reaches the port", () => {
    const declarations: FunctionDeclaration[] = [
      ...ROUTE_GROUPS,
      analysisWorker,
      apiKeyAuthorizer,
      correlationSweep,
      correlationWorker,
      counterRecount,
      ingestionWorker,
      mailWorker,
      notificationWorker,
      routeMiss,
      slaSweep,
    ];
    // The console has no declaration: it needs no port, only the files of its own bundle.
    const declared = [...view.stack.functions.keys()].filter((name) => name !== 'console');
    expect(declarations.map(({ name }) => name).sort()).toEqual(declared.sort());
    for (const declaration of declarations) {
      const fn = view.stack.functions.get(declaration.name)!;
      const env = envOf(fn);
      const wanted = declaration.needs.flatMap(({ binding }) =>
        (BINDING_ENV[binding.kind] as (one: Binding) => string[])(binding),
      );
      expect(
        wanted.filter((name) => !(name in env)),
        declaration.name,
      ).toEqual([]);
    }
  });

  it('deploys each function with the timeout the local stack enforces', () => {
    for (const [name, fn] of allFunctions()) {
      expect(view.functionResource(fn).Properties.Timeout, name).toBe(functionTimeoutSeconds(name));
    }
  });

  it('gives each function its own log group with a retention, and writes nowhere else', () => {
    for (const [, fn] of allFunctions()) {
      const logGroupId = view.logicalId(fn.logGroup.node.defaultChild as never);
      expect(view.functionResource(fn).Properties.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
      expect(view.resources[logGroupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
      const logStatements = view
        .statementsOf(fn)
        .filter((statement) => actionsOf(statement).some((a) => a.startsWith('logs:')));
      expect(logStatements).toEqual([expect.objectContaining({ Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] } })]);
    }
    // No role with a managed policy: the account-level API Gateway logging role is left alone by default.
    view.template.resourcePropertiesCountIs('AWS::IAM::Role', { ManagedPolicyArns: Match.anyValue() }, 0);
    view.template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('passes the rate limits to every API function', () => {
    for (const group of ROUTE_GROUPS) {
      expect(envOf(groupFunction(group.name)).RATE_LIMITS).toBe('global=200/15m,login=10/15m,email=3/1m,apikey=100/1m');
    }
  });
});
