import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { describe, expect, it } from 'vitest';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { allRoutes } from '#lib/routes/index.ts';
import { toGatewayPath } from '#lib/http/route.ts';
import { createServiceApp } from '#infra/service-app.ts';
import { buildApp, inspect, inspectDefaultApp } from './template.ts';

const envOf = (view: ReturnType<typeof inspect>, group: string): Record<string, string> => {
  const fn = view.stack.groupFunctions.get(group);
  if (!fn) throw new Error(`no function ${group}`);
  return view.functionResource(fn).Properties.Environment?.Variables ?? {};
};

describe('deploy settings', () => {
  it('refuses to synthesize without a sender address, saying what to pass', () => {
    const synth = () => createServiceApp({ context: { 'aws:cdk:bundling-stacks': [] }, checks: false });
    expect(synth).toThrow(/context mailFrom is required.*-c mailFrom=/);
  });

  it('runs the SLA sweep at the slaSweepMinutes context, whole minutes from 1 to 60', () => {
    const view = inspect(buildApp({ slaSweepMinutes: '5' }));
    view.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [view.logicalId(view.stack.slaSweep.lambda.node.defaultChild as never), 'Arn'] },
        }),
      ],
    });
    for (const wrong of ['0', '61', '1.5', 'often']) {
      expect(() => buildApp({ slaSweepMinutes: wrong }), wrong).toThrow(
        /context slaSweepMinutes must be a whole number/,
      );
    }
  });

  it('creates the SES identity of the sender address', () => {
    const view = inspect(buildApp({ mailFrom: 'incidents@acme.test' }));
    view.template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    view.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'incidents@acme.test' });
    expect(Object.keys(view.template.toJSON().Outputs ?? {}).filter((name) => name.startsWith('MailDkim'))).toEqual([]);
  });

  it('verifies a whole domain with DKIM, its three CNAME records as outputs', () => {
    const view = inspect(buildApp({ mailFrom: 'incidents@mail.acme.test', mailIdentity: 'acme.test' }));
    view.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'acme.test' });
    const outputs = view.template.toJSON().Outputs as Record<string, { Description: string }>;
    const dkim = Object.entries(outputs).filter(([name]) => name.startsWith('MailDkimRecord'));
    expect(dkim.map(([name]) => name)).toEqual(['MailDkimRecord1', 'MailDkimRecord2', 'MailDkimRecord3']);
    expect(dkim[0]?.[1].Description).toContain('acme.test');
    expect(() => buildApp({ mailFrom: 'incidents@acme.test', mailIdentity: 'other.test' })).toThrow(
      /mailIdentity must be mailFrom or a domain it belongs to/,
    );
  });

  it('points links in e-mail at the app URL, or at the API stage when none is given', () => {
    const byDefault = inspectDefaultApp();
    const apiUrl = JSON.stringify(envOf(byDefault, 'business').APP_URL);
    expect(apiUrl).toContain('execute-api');
    expect(apiUrl).toContain('/dev');
    const given = inspect(buildApp({ appUrl: 'https://incidents.acme.test/' }));
    expect(envOf(given, 'business').APP_URL).toBe('https://incidents.acme.test');
    expect(envOf(given, 'auth').APP_URL).toBe('https://incidents.acme.test');
    expect(envOf(given, 'tickets').APP_URL).toBeUndefined();
    expect(() => buildApp({ appUrl: 'ftp://acme.test' })).toThrow(/appUrl must be an http\(s\) URL/);
  });

  it('leaves the account-wide API Gateway logging role alone unless asked to set it', () => {
    inspectDefaultApp().template.resourceCountIs('AWS::ApiGateway::Account', 0);
    inspect(buildApp({ apiLogging: 'existingRole' })).template.resourceCountIs('AWS::ApiGateway::Account', 0);
    inspect(buildApp({ apiLogging: 'createRole' })).template.resourceCountIs('AWS::ApiGateway::Account', 1);
    expect(() => buildApp({ apiLogging: 'yes' })).toThrow(/apiLogging must be one of off, existingRole, createRole/);
  });

  it('names log groups as AWS recommends', () => {
    const view = inspectDefaultApp();
    view.template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: Match.stringLikeRegexp('^/aws/vendedlogs/states/IncidentService-dev-analysis$'),
    });
    const names = Object.values(view.template.findResources('AWS::Logs::LogGroup')).map(
      (group) => group.Properties.LogGroupName as unknown,
    );
    expect(names).toContain('/aws/lambda/IncidentService-dev-tickets');
  });

  it("lets only the gateway's authorizer refresh API keys' lastUsedAt, and nothing else of them", () => {
    const view = inspectDefaultApp();
    const apiKeyWrites = (fn: ServiceFunction) =>
      view.statementsOf(fn).filter((statement) => JSON.stringify(statement.Condition ?? {}).includes('#APIKEY'));
    expect(apiKeyWrites(view.stack.apiKeyAuthorizer)).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*#APIKEY'] } },
      }),
    ]);
    for (const group of ['dashboard', 'pipelines', 'tickets']) {
      const fn = view.stack.groupFunctions.get(group);
      if (!fn) throw new Error(group);
      expect(apiKeyWrites(fn), group).toEqual([]);
    }
  });

  it('sends every alarm to one topic, which alarmEmail subscribes to', () => {
    const view = inspectDefaultApp();
    const topics = Object.keys(view.template.findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    const alarms = Object.values(view.template.findResources('AWS::CloudWatch::Alarm'));
    // Two per queue (dead letters, age), errors and throttles of the workers, API 5xx and latency, analyses.
    expect(alarms).toHaveLength(13);
    const watchedMetrics = alarms.reduce(
      (count, alarm) =>
        count + (alarm.Properties.Metrics?.filter((m: { MetricStat?: unknown }) => m.MetricStat).length ?? 1),
      0,
    );
    // What CloudWatch bills: $0.10 a metric a month, the first ten free.
    expect(watchedMetrics).toBe(29);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topics[0] }]);
    const descriptions = alarms.map((alarm) => String(alarm.Properties.AlarmDescription));
    for (const watched of [
      'ingestion queue',
      'correlation queue',
      'mail queue',
      'function failed',
      'throttled',
      '5xx',
      'latency',
    ]) {
      expect(
        descriptions.some((text) => text.includes(watched)),
        watched,
      ).toBe(true);
    }
    view.template.resourceCountIs('AWS::SNS::Subscription', 0);
    const subscribed = inspect(buildApp({ alarmEmail: 'ops@acme.test' }));
    subscribed.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@acme.test',
    });
  });

  it('answers allowed origins: a preflight on every resource, CORS headers on gateway refusals', () => {
    const nested = (view: ReturnType<typeof inspect>) => Template.fromStack(view.stack.api.routes);
    const preflightsOf = (view: ReturnType<typeof inspect>) =>
      Object.keys(nested(view).findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } }));
    const off = inspect(buildApp({ allowedOrigins: 'none' }));
    expect(preflightsOf(off)).toHaveLength(0);
    expect(envOf(off, 'tickets').ALLOWED_ORIGINS).toBeUndefined();
    // Any origin by default.
    const plain = inspectDefaultApp();
    expect(preflightsOf(plain).length).toBeGreaterThan(0);
    expect(envOf(plain, 'tickets').ALLOWED_ORIGINS).toBe('*');
    expect(() => buildApp({ allowedOrigins: '*,https://app.acme.test' })).toThrow(/stands alone/);

    const view = inspect(buildApp({ allowedOrigins: 'https://app.acme.test,https://admin.acme.test' }));
    const routes = nested(view);
    const resourcesWithMethods = new Set(allRoutes().map(({ route }) => toGatewayPath(route.path)));
    const preflights = routes.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } });
    expect(Object.keys(preflights)).toHaveLength(resourcesWithMethods.size);
    for (const method of Object.values(preflights)) expect(method.Properties.Integration.Type).toBe('MOCK');
    // The nested stack stays under CloudFormation's 500 resources with a preflight on every resource.
    expect(Object.keys(routes.toJSON().Resources).length).toBeLessThan(500);

    for (const group of ['tickets', 'auth', 'ingestion']) {
      expect(envOf(view, group).ALLOWED_ORIGINS).toBe('https://app.acme.test,https://admin.acme.test');
    }
    const gatewayResponses = Object.values(view.template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(gatewayResponses.length).toBeGreaterThan(0);
    for (const response of gatewayResponses) {
      expect(response.Properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': 'method.request.header.origin',
      });
    }
    const single = inspect(buildApp({ allowedOrigins: 'https://app.acme.test' }));
    const [first] = Object.values(single.template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(first?.Properties.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe(
      "'https://app.acme.test'",
    );
    expect(() => buildApp({ allowedOrigins: 'https://app.acme.test/path' })).toThrow(/is not an origin/);
  });
});
