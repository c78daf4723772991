import { beforeAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { Method } from 'aws-cdk-lib/aws-apigateway';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { createRouteMiss } from '#lib/http/route-miss.ts';
import { DEFAULT_MAX_BODY_BYTES } from '#lib/http/middlewares/body-limit.ts';
import { allRoutes, knownRoutes } from '#lib/routes/index.ts';
import { USAGE_PLAN_TAG } from '#lib/ports/usage-plan/usage-plan.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { actionsOf, type inspect, inspectApp, PROD_CONTEXT, type Statement } from './template.ts';

/** What a first `cdk deploy` into a new account meets, read from the prod and dev templates (issue 39). */
let prod: ReturnType<typeof inspect>;
let dev: ReturnType<typeof inspect>;
/** Every template of the prod app: the stack's and each routes stack's. */
let prodTemplates: Template[];

beforeAll(() => {
  prod = inspectApp(PROD_CONTEXT);
  dev = inspectApp();
  prodTemplates = [prod.template, ...prod.stack.api.routeStacks.map((stack) => Template.fromStack(stack))];
});

type Resource = { Type: string; Properties: Record<string, any> };
const resourcesOf = (template: Template): Resource[] =>
  Object.values(template.toJSON().Resources as Record<string, Resource>);
const reservedOf = (view: ReturnType<typeof inspect>, fn: ServiceFunction): unknown =>
  view.functionResource(fn).Properties.ReservedConcurrentExecutions;

describe('concurrency', () => {
  it('reserves none in any stage unless asked, so a new account with a quota of 10 deploys', () => {
    for (const view of [prod, dev]) {
      for (const fn of view.stack.functions.values()) expect(reservedOf(view, fn)).toBeUndefined();
    }
  });

  it('reserves the correlation and notification workers their maximum concurrency when asked', () => {
    const reserving = inspectApp({ stage: 'prod', reserveWorkerConcurrency: 'true' });
    // Both correlation lanes' mappings invoke the one correlation worker.
    expect(reservedOf(reserving, reserving.stack.correlationWorker)).toBe(
      QUEUE_SETTINGS.correlation.maxConcurrency + QUEUE_SETTINGS['correlation-first'].maxConcurrency,
    );
    expect(reservedOf(reserving, reserving.stack.notificationWorker)).toBe(QUEUE_SETTINGS.notifications.maxConcurrency);
    expect(reservedOf(reserving, reserving.stack.ingestionWorker)).toBeUndefined();
  });
});

describe('alarms', () => {
  it("lets this account's CloudWatch alarms publish to the alarm topic, whose policy replaced SNS's default", () => {
    const topicId = prod.logicalId(prod.stack.alarms.topic.node.defaultChild as CfnElement);
    const [policy] = resourcesOf(prod.template).filter(
      ({ Type, Properties }) => Type === 'AWS::SNS::TopicPolicy' && JSON.stringify(Properties.Topics).includes(topicId),
    );
    const statements = policy?.Properties.PolicyDocument.Statement as Array<Statement & { Principal?: any }>;
    const cloudWatch = statements.find(
      (statement) => statement.Effect === 'Allow' && statement.Principal?.Service === 'cloudwatch.amazonaws.com',
    );
    expect(cloudWatch && actionsOf(cloudWatch)).toEqual(['sns:Publish']);
    expect(cloudWatch?.Resource).toEqual({ Ref: topicId });
    expect(cloudWatch?.Condition).toEqual({
      StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
      ArnLike: { 'aws:SourceArn': expect.anything() },
    });
  });

  it('sends every alarm of the template to that topic', () => {
    const topicId = prod.logicalId(prod.stack.alarms.topic.node.defaultChild as CfnElement);
    const alarms = resourcesOf(prod.template).filter(({ Type }) => Type === 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(5);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });
});

describe('API Gateway answers that cannot be 500s', () => {
  it('gives every MOCK integration content handling, which a */* binary API needs to answer at all', () => {
    expect(prod.template.toJSON().Resources).toBeDefined();
    prod.template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
    const mocks = prodTemplates
      .flatMap(resourcesOf)
      .filter(({ Type, Properties }) => Type === 'AWS::ApiGateway::Method' && Properties.Integration?.Type === 'MOCK');
    expect(mocks.length).toBeGreaterThan(100);
    for (const mock of mocks) expect(mock.Properties.Integration.ContentHandling).toBe('CONVERT_TO_TEXT');
  });

  it('routes every method of the stage root to a function, none to a MOCK', () => {
    const rootMethods = prod.stack.api.api.root.node.children.filter(
      (child): child is Method => child instanceof Method,
    );
    expect(rootMethods.map(({ httpMethod }) => httpMethod).sort()).toEqual(['ANY', 'GET']);
    for (const method of rootMethods) {
      const cfn = prod.stack.resolve((method.node.defaultChild as any).integration);
      expect(cfn.type, method.httpMethod).toBe('AWS_PROXY');
    }
  });

  it('sends a method a literal path lacks to route-miss when a parameter sits beside it, not to the parameter', () => {
    const methods = prod.stack.api.node
      .findAll()
      .filter((construct): construct is Method => construct instanceof Method);
    const byPath = new Map<string, string[]>();
    for (const { resource, httpMethod } of methods)
      byPath.set(resource.path, [...(byPath.get(resource.path) ?? []), httpMethod]);
    const routeMissArn = prod.logicalId(prod.stack.routeMiss.lambda.node.defaultChild as CfnElement);
    const literalsBesideParameters = [...byPath.keys()].filter((path) => {
      const parent = path.slice(0, path.lastIndexOf('/'));
      // The greedy `{proxy+}` beside the root's paths is route-miss itself.
      const besideParameter = (other: string) =>
        other.startsWith(`${parent}/{`) && !other.endsWith('+}') && other.split('/').length === path.split('/').length;
      return !path.endsWith('}') && [...byPath.keys()].some(besideParameter);
    });
    expect(literalsBesideParameters).toContain('/api/v1/signals/bulk');
    expect(literalsBesideParameters).toContain('/api/v1/incident-ticket/analytics');
    for (const path of literalsBesideParameters) {
      const any = methods.find((method) => method.resource.path === path && method.httpMethod === 'ANY');
      if (!any) throw new Error(`no ANY on ${path}`);
      const integration = prod.stack.resolve((any.node.defaultChild as any).integration);
      expect(JSON.stringify(integration), path).toContain(routeMissArn);
    }
  });

  it("knows the console's paths, so a wrong method there is a 405 with Allow: GET", () => {
    const answer = createRouteMiss(knownRoutes());
    const response = answer({ method: 'POST', path: '/sign-in', requestId: 'r' });
    expect(response.statusCode).toBe(405);
    const headers = Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    expect(headers.allow).toBe('GET');
  });

  it('answers a body Lambda would refuse with 413 in the envelope, and no route accepts a body Lambda cannot take', () => {
    const [tooLarge] = resourcesOf(prod.template).filter(
      ({ Type, Properties }) =>
        Type === 'AWS::ApiGateway::GatewayResponse' && Properties.ResponseType === 'REQUEST_TOO_LARGE',
    );
    expect(tooLarge?.Properties.StatusCode).toBe('413');
    expect(JSON.parse(tooLarge?.Properties.ResponseTemplates['application/json'])).toMatchObject({ success: false });
    // The body reaches Lambda base64-encoded (*/* is binary), beside headers and context: 6,291,556 bytes in all.
    const LAMBDA_INVOCATION_LIMIT = 6_291_556;
    const HEADROOM = 256 * 1024;
    for (const { key, route } of allRoutes()) {
      const encoded = Math.ceil((route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) / 3) * 4;
      expect(encoded + HEADROOM, key).toBeLessThanOrEqual(LAMBDA_INVOCATION_LIMIT);
    }
  });
});

describe('least privilege', () => {
  const allStatements = (view: ReturnType<typeof inspect>): Statement[] =>
    [...view.stack.functions.values()].flatMap((fn) => view.statementsOf(fn));

  it('publishes SMS only: no sns:Publish on `*`, and every topic ARN left out', () => {
    const publishing = allStatements(prod).filter((statement) => actionsOf(statement).includes('sns:Publish'));
    expect(publishing).toHaveLength(1);
    const [sms] = publishing as Array<Statement & { NotResource?: unknown }>;
    expect(sms?.Resource).toBeUndefined();
    expect(JSON.stringify(sms?.NotResource)).toContain(':sns:*');
  });

  it("manages only gateway keys tagged with the stack's usage plan", () => {
    const planId = prod.logicalId(prod.stack.usagePlan.plan.node.defaultChild as CfnElement);
    const keyStatements = allStatements(prod).filter((statement) =>
      String(JSON.stringify(statement.Resource)).includes('/apikeys'),
    );
    expect(keyStatements.length).toBeGreaterThan(0);
    for (const statement of keyStatements) {
      const tag = actionsOf(statement).includes('apigateway:POST') ? 'RequestTag' : 'ResourceTag';
      expect(statement.Condition).toEqual({ StringEquals: { [`aws:${tag}/${USAGE_PLAN_TAG}`]: { Ref: planId } } });
    }
  });
});

describe('tracing', () => {
  it('traces every function whenever the stage and the state machine trace, and none when they do not', () => {
    const untraced = inspectApp({ tracing: 'false' });
    for (const [view, traced] of [
      [prod, true],
      [untraced, false],
    ] as const) {
      view.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: traced });
      view.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
        TracingConfiguration: { Enabled: traced },
      });
      for (const [name, fn] of view.stack.functions) {
        expect(view.functionResource(fn).Properties.TracingConfig?.Mode ?? 'PassThrough', name).toBe(
          traced ? 'Active' : 'PassThrough',
        );
      }
    }
  });
});
