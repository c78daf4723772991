/** The REST API of the template: methods, validation, binary media, gateway answers, throttling, size. */
import { CONSOLE_PAGES } from '#lib/console-site/console-site.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { Method } from 'aws-cdk-lib/aws-apigateway';
import { ROUTE_GROUPS, allRoutes } from '#lib/routes/index.ts';
import { takesApiKeys } from '#lib/http/route.ts';
import { toGatewayPath } from '#lib/http/route-matcher.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { type inspect, inspectApp } from './template.ts';

let view: ReturnType<typeof inspect>;
/** The templates of the routes stacks. */
let routes: Template[];

beforeAll(() => {
  view = inspectApp();
  routes = view.stack.api.routeStacks.map((stack) => Template.fromStack(stack));
});

const groupFunction = (name: string): ServiceFunction => {
  const fn = view.stack.groupFunctions.get(name);
  if (!fn) throw new Error(`no function for group ${name}`);
  return fn;
};
const envOf = (fn: ServiceFunction): Record<string, unknown> =>
  view.functionResource(fn).Properties.Environment?.Variables ?? {};

describe('REST API', () => {
  type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
  /** `GET /api/v1/incident-ticket/{id}` for every method, with its properties in its routes stack's template. */
  const methodKeys = (): Map<string, Record<string, any>> => {
    const templates = new Map(view.stack.api.routeStacks.map((stack, index) => [stack, routes[index]!.toJSON()]));
    return new Map(
      view.stack.api.node
        .findAll()
        // Preflights (OPTIONS, the gateway's own mock answers) are the CORS tests' business, and an ANY (a literal's
        // other methods, to route-miss) the route-miss tests'.
        .filter(
          (construct): construct is Method =>
            construct instanceof Method && construct.httpMethod !== 'OPTIONS' && construct.httpMethod !== 'ANY',
        )
        // The console's pages are the stack's own, outside the routes' stacks (its own test below).
        .filter((method) => templates.has(Stack.of(method) as NestedStack))
        .map((method) => {
          const stack = Stack.of(method) as NestedStack;
          const id = stack.resolve(stack.getLogicalId(method.node.defaultChild as CfnElement)) as string;
          const resources = templates.get(stack)?.Resources as Resources | undefined;
          return [`${method.httpMethod} ${method.resource.path}`, resources?.[id]?.Properties ?? {}];
        }),
    );
  };

  it('has a method for every route, proxied to its group function; those taking API keys require a usage-plan key', () => {
    const methods = methodKeys();
    expect(methods.size).toBe(allRoutes().length);
    for (const { group, route } of allRoutes()) {
      const method = methods.get(`${route.method} ${toGatewayPath(route.path)}`);
      expect(method, `${route.method} ${route.path}`).toBeDefined();
      expect(method).toMatchObject(
        takesApiKeys(route)
          ? { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: expect.any(String) }, ApiKeyRequired: true }
          : { AuthorizationType: 'NONE' },
      );
      if (!takesApiKeys(route)) expect(method?.ApiKeyRequired ?? false).toBe(false);
      expect(method).toMatchObject({ Integration: { Type: 'AWS_PROXY' } });
      const target = JSON.stringify(method!.Integration.Uri);
      const byReference = target.includes(`${group.replace(/-/g, '')}functionFunction`);
      const functionName = view.functionResource(groupFunction(group)).Properties.FunctionName as string | undefined;
      const byName = functionName !== undefined && target.includes(`:function:${functionName}/invocations`);
      expect(byReference || byName, `${route.path} -> ${group}`).toBe(true);
    }
  });

  it('serves the API docs publicly from the docs function, as text: no content type of theirs is binary', () => {
    const methods = methodKeys();
    for (const path of [
      '/api/v1/openapi.json',
      '/api/v1/docs',
      '/api/v1/docs/swagger-ui-bundle.js',
      '/api/v1/docs/swagger-ui.css',
    ]) {
      const target = JSON.stringify(methods.get(`GET ${path}`)?.Integration.Uri);
      expect(methods.get(`GET ${path}`), path).toMatchObject({ AuthorizationType: 'NONE' });
      expect(target, path).toContain('docsfunctionFunction');
    }
    const [api] = Object.values(view.template.findResources('AWS::ApiGateway::RestApi'));
    // `*/*`: API Gateway decodes by the client's first Accept type, and curl and fetch send `*/*`.
    expect(api?.Properties.BinaryMediaTypes).toEqual(['*/*']);
  });

  it('serves the console publicly from its own function at the stage root, beside /api and never below it', () => {
    const resources = view.template.toJSON().Resources as Resources;
    const pathOf = (ref: unknown): string => {
      const id = (ref as { Ref?: string }).Ref;
      const resource = id ? resources[id] : undefined;
      if (resource?.Type !== 'AWS::ApiGateway::Resource') return '';
      return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
    };
    const consoleMethods = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::ApiGateway::Method')
      .filter((method) => JSON.stringify(method.Properties.Integration?.Uri ?? '').includes('ConsoleFunction'));
    const paths = consoleMethods.map(
      (method) => `${method.Properties.HttpMethod} ${pathOf(method.Properties.ResourceId) || '/'}`,
    );
    expect(paths.sort()).toEqual(
      [
        ...CONSOLE_PAGES,
        '/console/app.js',
        '/console/app.css',
        // The installable app's files (issue 46): a service worker's scope is the folder it is served from.
        '/service-worker.js',
        '/manifest.webmanifest',
        '/icon-192.png',
        '/icon-512.png',
      ]
        .map((path) => `GET ${path}`)
        .sort(),
    );
    for (const method of consoleMethods) expect(method.Properties).toMatchObject({ AuthorizationType: 'NONE' });
    expect(paths.some((path) => path.startsWith('GET /api'))).toBe(false);
    // Links in e-mail point at the stage URL, where the console answers them.
    const mailer = view.functionResource(groupFunction('business')).Properties.Environment.Variables.APP_URL;
    expect(JSON.stringify(mailer)).toContain('execute-api');
  });

  it('validates every method and declares its path parameters', () => {
    for (const [key, method] of methodKeys()) {
      expect(method.RequestValidatorId, key).toBeDefined();
      const names = [...key.matchAll(/\{(\w+)\}/g)].map(([, name]) => `method.request.path.${name}`);
      expect(method.RequestParameters ?? {}, key).toEqual(Object.fromEntries(names.map((name) => [name, true])));
    }
    view.template.hasResourceProperties('AWS::ApiGateway::RequestValidator', {
      ValidateRequestBody: true,
      ValidateRequestParameters: true,
    });
  });

  it('invokes each function through one permission for the whole API', () => {
    // One per route group, the two sweeps' and the recount's schedules, the authorizer's, the rule's on
    // unfinished analyses, the console's and the route-miss catch-all's.
    view.template.resourceCountIs('AWS::Lambda::Permission', ROUTE_GROUPS.length + 7);
    for (const template of routes) template.resourceCountIs('AWS::Lambda::Permission', 0);
  });

  it('returns PDFs as binary, traces and throttles the stage, and logs it only when asked', () => {
    view.template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
    view.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: true,
      AccessLogSetting: Match.absent(),
      MethodSettings: [Match.objectLike({ LoggingLevel: Match.absent(), MetricsEnabled: true })],
    });
    const logged = inspectApp({ apiLogging: 'existingRole' });
    logged.template.resourceCountIs('AWS::ApiGateway::Account', 0);
    logged.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: true,
      AccessLogSetting: { Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
      MethodSettings: [
        Match.objectLike({
          LoggingLevel: 'INFO',
          DataTraceEnabled: false,
          MetricsEnabled: true,
          ThrottlingRateLimit: Match.anyValue(),
          ThrottlingBurstLimit: Match.anyValue(),
        }),
      ],
    });
  });

  const SAMPLES: Record<string, string> = {
    '$context.error.messageString': '"Invalid request body"',
    '$context.error.validationErrorString': 'Missing required request parameters: [id]',
  };
  const gatewayBody = (type: string): { status?: string; body: any } => {
    const responses = view.template.findResources('AWS::ApiGateway::GatewayResponse', {
      Properties: { ResponseType: type },
    });
    const [response] = Object.values(responses);
    if (!response) throw new Error(`no gateway response ${type}`);
    let template = response.Properties.ResponseTemplates['application/json'] as string;
    for (const [variable, sample] of Object.entries(SAMPLES)) template = template.replaceAll(variable, sample);
    return { status: response.Properties.StatusCode, body: JSON.parse(template) };
  };

  it('answers its own refusals in the error envelope', () => {
    expect(gatewayBody('MISSING_AUTHENTICATION_TOKEN')).toEqual({
      status: '404',
      body: { success: false, message: 'Route not found', errors: [] },
    });
    expect(gatewayBody('REQUEST_TOO_LARGE')).toMatchObject({ status: '413', body: { success: false, errors: [] } });
    expect(gatewayBody('THROTTLED')).toEqual({
      status: '429',
      body: { success: false, message: 'Too many requests, please try again later', errors: [] },
    });
    const throttled = Object.values(
      view.template.findResources('AWS::ApiGateway::GatewayResponse', {
        Properties: { ResponseType: 'THROTTLED' },
      }),
    )[0];
    expect(throttled?.Properties.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Retry-After': "'1'",
      'gatewayresponse.header.RateLimit-Limit': "'100'",
      'gatewayresponse.header.RateLimit-Remaining': "'0'",
      'gatewayresponse.header.RateLimit-Reset': "'1'",
    });
    expect(gatewayBody('INVALID_API_KEY')).toEqual({
      status: '401',
      body: { success: false, message: 'Invalid API key', errors: [] },
    });
    for (const type of ['BAD_REQUEST_PARAMETERS', 'BAD_REQUEST_BODY']) {
      expect(gatewayBody(type)).toEqual({
        status: '400',
        body: {
          success: false,
          message: 'Invalid request body',
          errors: ['Missing required request parameters: [id]'],
        },
      });
    }
    expect(gatewayBody('DEFAULT_4XX').body).toEqual({ success: false, message: 'Invalid request body', errors: [] });
    expect(gatewayBody('DEFAULT_5XX').body).toEqual({ success: false, message: 'Internal server error', errors: [] });
  });

  it('throttles API keys at 100 requests a minute on the stage, and counts other callers under one shared key', () => {
    view.template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 1.67, BurstLimit: 100 },
      ApiStages: [Match.objectLike({ ApiId: Match.anyValue(), Stage: Match.anyValue() })],
    });
    view.template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: Match.absent(),
      ApiStages: [Match.objectLike({ ApiId: Match.anyValue(), Stage: Match.anyValue() })],
    });
    const unkeyed = view.stack.usagePlan.unkeyedKeyValue;
    view.template.hasResourceProperties('AWS::ApiGateway::ApiKey', { Value: unkeyed, Enabled: true });
    expect(envOf(view.stack.apiKeyAuthorizer).UNKEYED_USAGE_KEY).toBe(unkeyed);
    view.template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    view.template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      AuthorizerResultTtlInSeconds: 0,
    });
    // The plan follows the apikey limiter's setting, as the local gateway does.
    inspectApp({ rateLimits: 'apikey=30/1m' }).template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 0.5, BurstLimit: 30 },
    });
    expect(envOf(groupFunction('api-keys')).USAGE_PLAN_ID).toEqual({
      Ref: view.logicalId(view.stack.usagePlan.plan.node.defaultChild as never),
    });
  });
});

describe('size', () => {
  it('keeps each stack well under the 500-resource limit, below the 80% at which CDK warns', () => {
    expect(Object.keys(view.template.toJSON().Resources).length).toBeLessThan(400);
    // Every route of the spec is in the table, and with CORS on (the default) each resource has its preflight,
    // split by subtree into stacks. A listed subtree never moves (docs/decisions.md), so a stack grows with the
    // routes its subtrees gain: at most 350 resources each (the second stack holds 254 after issue 48's outside
    // addresses and issue 42's workspace summary), under the 400 at which CDK warns.
    expect(routes.length).toBeGreaterThan(1);
    for (const template of routes) expect(Object.keys(template.toJSON().Resources).length).toBeLessThanOrEqual(350);
  });
});
