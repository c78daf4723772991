import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { describe, expect, it } from 'vitest';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { allRoutes } from '#lib/routes/index.ts';
import { toGatewayPath } from '#lib/http/route-matcher.ts';
import { createServiceApp } from '#infra/service-app.ts';
import { buildApp, type inspect, inspectApp, inspectDefaultApp, PROD_CONTEXT } from './template.ts';

const envOf = (view: ReturnType<typeof inspect>, group: string): Record<string, string> => {
  const fn = view.stack.groupFunctions.get(group);
  if (!fn) throw new Error(`no function ${group}`);
  return view.functionResource(fn).Properties.Environment?.Variables ?? {};
};

/**
 * The settings read by these tests, given together where they do not touch each other: a synth costs about 2 s of
 * CPU, and one app per setting took 15 of them. Each test reads its setting from the app that gives it, and the
 * default (or another app) for its absence.
 */
const CUSTOMIZED = {
  slaSweepMinutes: '5',
  mailFrom: 'incidents@acme.test',
  mailIdentityExists: false,
  appUrl: 'https://incidents.acme.test/',
  apiLogging: 'createRole',
  alarmEmail: 'ops@acme.test',
  allowedOrigins: 'https://app.acme.test,https://admin.acme.test',
};
/** A sender on a domain verified as a whole, the existing API Gateway logging role, one allowed origin. */
const DOMAIN_MAIL = {
  mailFrom: 'incidents@mail.acme.test',
  mailIdentity: 'acme.test',
  apiLogging: 'existingRole',
  allowedOrigins: 'https://app.acme.test',
};
/** An SES identity that exists already, and no origin allowed. */
const EXISTING_IDENTITY = { mailFrom: 'incidents@acme.test', mailIdentityExists: 'true', allowedOrigins: 'none' };

describe('deploy settings', () => {
  it('refuses to synthesize without a sender address, saying what to pass', () => {
    const synth = () => createServiceApp({ context: { 'aws:cdk:bundling-stacks': [] }, checks: false });
    expect(synth).toThrow(/context mailFrom is required.*-c mailFrom=/);
  });

  it('runs the SLA sweep at the slaSweepMinutes context, whole minutes from 1 to 60', () => {
    const view = inspectApp(CUSTOMIZED);
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
    const view = inspectApp(CUSTOMIZED);
    view.template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    view.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'incidents@acme.test' });
    expect(Object.keys(view.template.toJSON().Outputs ?? {}).filter((name) => name.startsWith('MailDkim'))).toEqual([]);
  });

  it('verifies a whole domain with DKIM, its three CNAME records as outputs', () => {
    const view = inspectApp(DOMAIN_MAIL);
    view.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'acme.test' });
    const outputs = view.template.toJSON().Outputs as Record<string, { Description: string }>;
    const dkim = Object.entries(outputs).filter(([name]) => name.startsWith('MailDkimRecord'));
    expect(dkim.map(([name]) => name)).toEqual(['MailDkimRecord1', 'MailDkimRecord2', 'MailDkimRecord3']);
    expect(dkim[0]?.[1].Description).toContain('acme.test');
    expect(() => buildApp({ mailFrom: 'incidents@acme.test', mailIdentity: 'other.test' })).toThrow(
      /mailIdentity must be mailFrom or a domain it belongs to/,
    );
  });

  // Another stage with the same mailFrom, or an address verified with the CLI as the sandbox steps suggest,
  // already holds the identity: creating it again failed the deploy.
  it('uses an SES identity that already exists when told, creating none, and still sends only from mailFrom', () => {
    const view = inspectApp(EXISTING_IDENTITY);
    view.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    expect(view.statementsOf(view.stack.mailWorker)).toContainEqual(
      expect.objectContaining({
        Action: 'ses:SendEmail',
        Condition: { StringEquals: { 'ses:FromAddress': 'incidents@acme.test' } },
      }),
    );
    inspectApp(CUSTOMIZED).template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    expect(() => buildApp({ mailIdentityExists: 'yes' })).toThrow(/mailIdentityExists must be true or false/);
  });

  it('points links in e-mail at the app URL, or at the API stage when none is given', () => {
    const byDefault = inspectDefaultApp();
    const apiUrl = JSON.stringify(envOf(byDefault, 'business').APP_URL);
    expect(apiUrl).toContain('execute-api');
    expect(apiUrl).toContain('/dev');
    const given = inspectApp(CUSTOMIZED);
    expect(envOf(given, 'business').APP_URL).toBe('https://incidents.acme.test');
    expect(envOf(given, 'auth').APP_URL).toBe('https://incidents.acme.test');
    expect(envOf(given, 'tickets').APP_URL).toBeUndefined();
    expect(() => buildApp({ appUrl: 'ftp://acme.test' })).toThrow(/appUrl must be an http\(s\) URL/);
  });

  it('leaves the account-wide API Gateway logging role alone unless asked to set it', () => {
    inspectDefaultApp().template.resourceCountIs('AWS::ApiGateway::Account', 0);
    inspectApp(DOMAIN_MAIL).template.resourceCountIs('AWS::ApiGateway::Account', 0);
    inspectApp(CUSTOMIZED).template.resourceCountIs('AWS::ApiGateway::Account', 1);
    expect(() => buildApp({ apiLogging: 'yes' })).toThrow(/apiLogging must be one of off, existingRole, createRole/);
  });

  it('names log groups as AWS recommends', () => {
    const view = inspectDefaultApp();
    const names = Object.values(view.template.findResources('AWS::Logs::LogGroup')).map((group) =>
      JSON.stringify(group.Properties.LogGroupName ?? null),
    );
    expect(names.some((name) => name.includes('"/aws/vendedlogs/states/IncidentService-dev-analysis-"'))).toBe(true);
    expect(names.some((name) => name.includes('"/aws/lambda/IncidentService-dev-tickets-"'))).toBe(true);
  });

  // prod retains its log groups: with fixed names the next deploy after `cdk destroy` failed on 32 of them.
  it('names no log group of prod so that one kept from a destroyed stack blocks the next deploy', () => {
    const view = inspectApp(PROD_CONTEXT);
    const groups = Object.values(view.template.findResources('AWS::Logs::LogGroup'));
    expect(groups.filter((group) => group.DeletionPolicy === 'Retain').length).toBeGreaterThan(30);
    for (const group of groups) {
      const name = JSON.stringify(group.Properties.LogGroupName ?? null);
      // Unnamed, or named after something each new stack gets anew: its id, or the new API's id.
      expect(name === 'null' || name.includes('"AWS::StackId"') || name.includes('"Ref":"HttpApi'), name).toBe(true);
    }
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

  // Every stage's API was named "Api", so the 5xx and latency alarms of prod watched dev's requests too.
  it("names each stage's API after its stack, and its alarms watch that name alone", () => {
    for (const [stage, view] of [
      ['dev', inspectDefaultApp()],
      ['prod', inspectApp(PROD_CONTEXT)],
    ] as const) {
      view.template.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: `IncidentService-${stage}` });
      const apiAlarms = Object.values(view.template.findResources('AWS::CloudWatch::Alarm')).filter(
        (alarm) => alarm.Properties.Namespace === 'AWS/ApiGateway',
      );
      expect(apiAlarms.map((alarm) => alarm.Properties.MetricName).sort(), stage).toEqual(['5XXError', 'Latency']);
      for (const alarm of apiAlarms) {
        expect(alarm.Properties.Dimensions, stage).toEqual([{ Name: 'ApiName', Value: `IncidentService-${stage}` }]);
      }
    }
  });

  it('sends every alarm to one topic, which alarmEmail subscribes to', () => {
    const view = inspectDefaultApp();
    const topics = Object.keys(view.template.findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    const alarms = Object.values(view.template.findResources('AWS::CloudWatch::Alarm'));
    // Age per queue, errors of the workers, API 5xx and latency, analyses; and the pager's own health: the
    // sweep, late notifications, SMS failures and spend, new dead letters (one alarm over the five queues).
    expect(alarms).toHaveLength(14);
    const watchedMetrics = alarms.reduce(
      (count, alarm) =>
        count + (alarm.Properties.Metrics?.filter((m: { MetricStat?: unknown }) => m.MetricStat).length ?? 1),
      0,
    );
    // What CloudWatch bills: $0.10 a metric a month, the first ten free (test/infra/idle-cost.test.ts).
    expect(watchedMetrics).toBe(26);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topics[0] }]);
    const descriptions = alarms.map((alarm) => String(alarm.Properties.AlarmDescription));
    for (const watched of [
      'ingestion queue',
      'correlation queue',
      'correlation-first queue',
      'mail queue',
      'function failed',
      '5xx',
      'latency',
    ]) {
      expect(
        descriptions.some((text) => text.includes(watched)),
        watched,
      ).toBe(true);
    }
    view.template.resourceCountIs('AWS::SNS::Subscription', 0);
    const subscribed = inspectApp(CUSTOMIZED);
    subscribed.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@acme.test',
    });
  });

  it('answers allowed origins: a preflight on every resource, CORS headers on gateway refusals', () => {
    const nested = (view: ReturnType<typeof inspect>) =>
      view.stack.api.routeStacks.map((stack) => Template.fromStack(stack));
    const preflightsOf = (view: ReturnType<typeof inspect>) =>
      nested(view).flatMap((template) =>
        Object.keys(template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } })),
      );
    const off = inspectApp(EXISTING_IDENTITY);
    expect(preflightsOf(off)).toHaveLength(0);
    expect(envOf(off, 'tickets').ALLOWED_ORIGINS).toBeUndefined();
    // Any origin by default.
    const plain = inspectDefaultApp();
    expect(preflightsOf(plain).length).toBeGreaterThan(0);
    expect(envOf(plain, 'tickets').ALLOWED_ORIGINS).toBe('*');
    expect(() => buildApp({ allowedOrigins: '*,https://app.acme.test' })).toThrow(/stands alone/);

    const view = inspectApp(CUSTOMIZED);
    const routes = nested(view);
    const resourcesWithMethods = new Set(allRoutes().map(({ route }) => toGatewayPath(route.path)));
    const preflights = routes.flatMap((template) =>
      Object.values(template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } })),
    );
    expect(preflights).toHaveLength(resourcesWithMethods.size);
    for (const method of preflights) expect(method.Properties.Integration.Type).toBe('MOCK');
    // Each routes stack stays under CloudFormation's 500 resources with a preflight on every resource.
    for (const template of routes) expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(400);

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
    const single = inspectApp(DOMAIN_MAIL);
    const [first] = Object.values(single.template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(first?.Properties.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe(
      "'https://app.acme.test'",
    );
    expect(() => buildApp({ allowedOrigins: 'https://app.acme.test/path' })).toThrow(/is not an origin/);
  });
});
