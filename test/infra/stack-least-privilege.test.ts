/** The templates of the routes stacks. */
import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';
import { tableAccessOf } from '#infra/need-bindings.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';
import { actionsOf, type inspect, inspectApp } from './template.ts';

/** Each function's IAM statements in the template: only what its needs declare. */
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
const groupsWith = (predicate: (fn: ServiceFunction) => boolean): string[] =>
  allFunctions()
    .filter(([, fn]) => predicate(fn))
    .map(([name]) => name)
    .sort();

const DYNAMO_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

describe('least privilege', () => {
  it('gives health nothing but the limiter counters', () => {
    const statements = view.statementsOf(groupFunction('health'));
    const nonLog = statements.filter((statement) =>
      actionsOf(statement).some((action) => !action.startsWith('logs:') && !action.startsWith('xray:')),
    );
    expect(nonLog.flatMap(actionsOf)).toEqual(['dynamodb:UpdateItem']);
    expect(nonLog[0]?.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['LIMIT#*'] } });
  });

  it('lets read-only groups read, and write nothing but limiter counters', () => {
    const readOnly = ROUTE_GROUPS.filter((group) => tableAccessOf(group) === 'read').map((group) => group.name);
    expect(readOnly).toEqual(expect.arrayContaining(['dashboard', 'pipelines', 'tickets']));
    for (const name of readOnly) {
      const statements = view.statementsOf(groupFunction(name));
      expect(statements.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      for (const statement of statements) {
        const writes = actionsOf(statement).filter((action) => DYNAMO_WRITES.includes(action));
        if (writes.length === 0) continue;
        expect(writes, name).toEqual(['dynamodb:UpdateItem']);
        // The limiter's windows, and the lastUsedAt of the API keys the group's routes accept.
        expect(statement.Condition, name).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [expect.stringMatching(/^(LIMIT#\*|WS#\*#APIKEY)$/)] },
        });
      }
    }
  });

  it('never grants Scan, table-wide wildcards or index wildcards', () => {
    for (const [name, fn] of allFunctions()) {
      expect(view.actionsOfFunction(fn), name).not.toContain('dynamodb:Scan');
      expect(JSON.stringify(view.statementsOf(fn)), name).not.toMatch(/index\/\*|"dynamodb:\*"/);
    }
  });

  it('lets only signals, ingestion and the SLA sweep send to both signal queues, and the ingestion worker and sweep to correlation', () => {
    const senders = groupsWith((fn) => view.actionsOfFunction(fn).includes('sqs:SendMessage'));
    expect(senders).toEqual([
      'auth',
      'business',
      'correlation-sweep',
      'correlation-worker',
      'incidents',
      'ingestion',
      'ingestion-worker',
      // A chat button acknowledges, resolves or escalates, and the news is paged (issue 46).
      'integrations',
      'notification-worker',
      'schedules',
      'signals',
      'sla-policies',
      'sla-sweep',
    ]);
    // The SLA sweep stores missed heartbeats as signals (docs/heartbeats.md).
    expect(groupsWith((fn) => 'INGESTION_QUEUE_URL' in envOf(fn))).toEqual(['ingestion', 'signals', 'sla-sweep']);
    expect(groupsWith((fn) => 'CORRELATION_QUEUE_URL' in envOf(fn))).toEqual([
      'correlation-sweep',
      'ingestion',
      'ingestion-worker',
      'signals',
      'sla-sweep',
    ]);
  });

  it('lets only the functions that write incidents or escalate them queue notifications, and only the notification worker text', () => {
    expect(groupsWith((fn) => 'NOTIFICATIONS_QUEUE_URL' in envOf(fn))).toEqual([
      'correlation-worker',
      'incidents',
      'integrations',
      'sla-sweep',
    ]);
    expect(groupsWith((fn) => view.actionsOfFunction(fn).includes('sns:Publish'))).toEqual(['notification-worker']);
    expect(groupsWith((fn) => view.actionsOfFunction(fn).includes('kms:GenerateDataKey'))).toEqual([
      'integrations',
      'notification-worker',
    ]);
    expect(groupsWith((fn) => 'INTEGRATION_PROVIDERS_SECRET_ARN' in envOf(fn))).toEqual([
      'integrations',
      'notification-worker',
    ]);
    view.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it('lets only assistant start the analysis (the incidents AI routes reason on request)', () => {
    expect(groupsWith((fn) => view.actionsOfFunction(fn).includes('states:StartExecution'))).toEqual(['assistant']);
    expect(groupsWith((fn) => 'ANALYSIS_STATE_MACHINE_ARN' in envOf(fn))).toEqual(['assistant']);
  });

  it('lets the groups that declare mail put it on the mail queue, and nothing else of SQS', () => {
    const mailers = ROUTE_GROUPS.filter((group) => group.needs.some(({ binding }) => binding.kind === 'mail'));
    // Schedules (escalation policies) and SLA policies mail an outside address its confirmation (docs/security.md).
    expect(mailers.map((group) => group.name).sort()).toEqual(['auth', 'business', 'schedules', 'sla-policies']);
    const mailQueueArn = {
      'Fn::GetAtt': [view.logicalId(view.stack.queues.mail.queue.node.defaultChild as never), 'Arn'],
    };
    for (const { name } of mailers) {
      const sqsStatements = view
        .statementsOf(groupFunction(name))
        .filter((statement) => actionsOf(statement).some((action) => action.startsWith('sqs:')));
      expect(sqsStatements, name).toEqual([expect.objectContaining({ Effect: 'Allow', Resource: mailQueueArn })]);
      expect(actionsOf(sqsStatements[0]!), name).toContain('sqs:SendMessage');
    }
    // The SLA sweep, a worker and no route group, mails handoff notices itself (docs/on-call.md).
    expect(groupsWith((fn) => 'MAIL_QUEUE_URL' in envOf(fn))).toEqual([
      'auth',
      'business',
      'notification-worker',
      'schedules',
      'sla-policies',
      'sla-sweep',
    ]);
  });

  it('lets only the mail worker use SES, from the configured sender', () => {
    expect(groupsWith((fn) => view.actionsOfFunction(fn).some((action) => action.startsWith('ses:')))).toEqual([
      'mail-worker',
    ]);
    expect(groupsWith((fn) => 'MAIL_FROM' in envOf(fn))).toEqual(['mail-worker']);
    expect(envOf(view.stack.mailWorker).MAIL_FROM).toBe('no-reply@example.com');
    const [mail] = view.statementsOf(view.stack.mailWorker).filter((s) => actionsOf(s).includes('ses:SendEmail'));
    expect(mail?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });
  });

  it('lets only api-keys and integrations (each code-host hook gets its ingestion key) manage the usage plan keys', () => {
    expect(groupsWith((fn) => view.actionsOfFunction(fn).some((action) => action.startsWith('apigateway:')))).toEqual([
      'api-keys',
      'integrations',
    ]);
  });

  it('gives the JWT signing key to auth and the notification worker, which sign, and every group that verifies', () => {
    const TOKEN_MODES = ['optionalBearer', 'bearer', 'account', 'bearerOrApiKey'];
    const verifiers = ROUTE_GROUPS.filter((group) =>
      Object.values(group.routes).some((route) => TOKEN_MODES.includes(route.auth)),
    );
    // The notification worker signs acknowledge links with a key derived from it (docs/escalation.md).
    const expected = ['auth', 'notification-worker', ...verifiers.map((group) => group.name)].sort();
    expect(expected).toContain('ingestion');
    expect(groupsWith((fn) => view.actionsOfFunction(fn).includes('secretsmanager:GetSecretValue'))).toEqual(expected);
    expect(groupsWith((fn) => 'JWT_SECRET_ARN' in envOf(fn))).toEqual(expected);
    view.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({
        SecretStringTemplate: JSON.stringify({ kid: 'key-1' }),
        GenerateStringKey: 'secret',
        PasswordLength: 64,
      }),
    });
  });
});
