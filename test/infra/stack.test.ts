import { CONSOLE_PAGES } from '#lib/console-site/console-site.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { Method } from 'aws-cdk-lib/aws-apigateway';
import { ROUTE_GROUPS, allRoutes } from '#lib/routes/index.ts';
import { takesApiKeys, toGatewayPath } from '#lib/http/route.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { TABLE_INDEXES, TTL_ATTRIBUTE } from '#lib/store/table-schema.ts';
import { ANALYSIS_STAGES } from '#lib/analysis/analysis.ts';
import { tableAccessOf } from '#infra/need-bindings.ts';
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
import { actionsOf, buildApp, inspect } from './template.ts';

let view: ReturnType<typeof inspect>;
/** The templates of the routes stacks. */
let routes: Template[];

beforeAll(() => {
  view = inspect(buildApp());
  routes = view.stack.api.routeStacks.map((stack) => Template.fromStack(stack));
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

describe('table', () => {
  it('is on demand with point-in-time recovery, TTL and the three indexes', () => {
    view.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    view.template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
    // Its name is an output: a point-in-time restore starts from it (README, "Restoring the table").
    const tableId = view.logicalId(view.stack.table.table.node.defaultChild as CfnElement);
    view.template.hasOutput('TableName', { Value: { Ref: tableId } });
  });

  it('is protected and retained in prod only', () => {
    view.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    const prod = Template.fromStack(buildApp({ stage: 'prod' }).stack);
    prod.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });
});

describe('queues', () => {
  it('has the four work queues, each with an encrypted, TLS-only dead-letter queue and an alarm on it', () => {
    view.template.resourceCountIs('AWS::SQS::Queue', 8);
    view.template.allResourcesProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    for (const name of ['ingestion', 'correlation', 'mail', 'notifications'] as const) {
      const workQueue = view.stack.queues[name];
      const queue = view.resources[view.logicalId(workQueue.queue.node.defaultChild as never)]!;
      const deadLetterId = view.logicalId(workQueue.deadLetterQueue.node.defaultChild as never);
      expect(queue.Properties).toMatchObject({
        VisibilityTimeout: QUEUE_SETTINGS[name].visibilityTimeoutSeconds,
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] },
          maxReceiveCount: QUEUE_SETTINGS[name].maxReceiveCount,
        },
      });
      view.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterId, 'QueueName'] } }],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
      });
    }
    view.template.resourcePropertiesCountIs(
      'AWS::CloudWatch::Alarm',
      { MetricName: 'ApproximateNumberOfMessagesVisible' },
      4,
    );
    const denyInsecure = {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    };
    view.template.resourcePropertiesCountIs('AWS::SQS::QueuePolicy', denyInsecure, 8);
  });

  it('drains each queue with its worker, reporting partial batch failures', () => {
    view.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 4);
    for (const [name, worker] of [
      ['ingestion', view.stack.ingestionWorker],
      ['correlation', view.stack.correlationWorker],
      ['mail', view.stack.mailWorker],
      ['notifications', view.stack.notificationWorker],
    ] as const) {
      view.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: view.logicalId(worker.lambda.node.defaultChild as never) },
        EventSourceArn: {
          'Fn::GetAtt': [view.logicalId(view.stack.queues[name].queue.node.defaultChild as never), 'Arn'],
        },
        BatchSize: QUEUE_SETTINGS[name].batchSize,
        ScalingConfig: { MaximumConcurrency: QUEUE_SETTINGS[name].maxConcurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    // No batching window: a storm's first signal is invoked at once, not held back to fill a batch.
    view.template.allResourcesProperties('AWS::Lambda::EventSourceMapping', {
      MaximumBatchingWindowInSeconds: Match.absent(),
    });
  });

  it('reserves the maximum concurrency of the correlation and notification workers in prod only', () => {
    const reserved = (template: Template, worker: ServiceFunction) =>
      template.toJSON().Resources[view.logicalId(worker.lambda.node.defaultChild as never)].Properties
        .ReservedConcurrentExecutions;
    const prodApp = buildApp({ stage: 'prod' });
    const prod = Template.fromStack(prodApp.stack);
    expect(reserved(prod, prodApp.stack.correlationWorker)).toBe(QUEUE_SETTINGS.correlation.maxConcurrency);
    expect(reserved(prod, prodApp.stack.notificationWorker)).toBe(QUEUE_SETTINGS.notifications.maxConcurrency);
    expect(reserved(prod, prodApp.stack.ingestionWorker)).toBeUndefined();
    expect(reserved(view.template, view.stack.correlationWorker)).toBeUndefined();
    expect(reserved(view.template, view.stack.notificationWorker)).toBeUndefined();
  });

  it('runs the SLA sweep every minute by default', () => {
    view.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [view.logicalId(view.stack.slaSweep.lambda.node.defaultChild as never), 'Arn'] },
        }),
      ],
    });
  });

  it('runs the correlation sweep every minute', () => {
    view.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [view.logicalId(view.stack.correlationSweep.lambda.node.defaultChild as never), 'Arn'] },
        }),
      ],
    });
  });
});

/** The definition with every intrinsic (the worker's ARN) replaced by a placeholder. */
const renderDefinition = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  return join ? join[1].map(renderDefinition).join(join[0]) : 'WORKER_ARN';
};

describe('analysis state machine', () => {
  const definition = () =>
    JSON.parse(renderDefinition(view.stack.resolve(view.stack.workflow.cfnStateMachine.definitionString))) as {
      StartAt: string;
      States: Record<string, Record<string, any>>;
    };

  it('runs the four stages in order on the analysis worker, passing the state along', () => {
    const { StartAt, States } = definition();
    const order: string[] = [];
    for (let name: string | undefined = StartAt; name; name = States[name]?.Next) order.push(name);
    expect(order).toEqual(['ContextGathering', 'HypothesisGeneration', 'ImpactAssessment', 'RemediationPlanning']);
    expect(order.map((name) => States[name]?.Parameters)).toEqual(
      ANALYSIS_STAGES.map((stage) => ({ stage, 'input.$': '$' })),
    );
    expect(States.RemediationPlanning?.End).toBe(true);
    for (const name of [...order, 'MarkFailed']) {
      expect(States[name]).toMatchObject({ Type: 'Task', Resource: 'WORKER_ARN' });
    }
  });

  it('retries any error of a task (Lambda service errors too) twice, 1 s then 2 s later, before the Catch', () => {
    const { States } = definition();
    for (const name of [
      'ContextGathering',
      'HypothesisGeneration',
      'ImpactAssessment',
      'RemediationPlanning',
      'MarkFailed',
    ]) {
      expect(States[name]?.Retry).toEqual([
        {
          ErrorEquals: ['States.ALL'],
          MaxAttempts: 2,
          IntervalSeconds: 1,
          BackoffRate: 2,
        },
      ]);
    }
  });

  // 900 s was shorter than four stages tried three times each within the worker's 2 minutes: a slow but
  // healthy execution timed out, and a timeout runs no Catch.
  it('lets an execution run as long as every try of every task may take', () => {
    const { States } = definition();
    const workerTimeout = view.functionResource(view.stack.analysisWorker).Properties.Timeout as number;
    const worstCase = Object.values(States)
      .filter((state) => state.Type === 'Task')
      .map((state) => {
        const [retry] = state.Retry as { MaxAttempts: number; IntervalSeconds: number; BackoffRate: number }[];
        const waits = Array.from(
          { length: retry!.MaxAttempts },
          (_v, n) => retry!.IntervalSeconds * retry!.BackoffRate ** n,
        );
        return (retry!.MaxAttempts + 1) * workerTimeout + waits.reduce((a, b) => a + b, 0);
      })
      .reduce((a, b) => a + b, 0);
    const timeout = view.template.findResources('AWS::StepFunctions::StateMachine');
    const { DefinitionString } = Object.values(timeout)[0]!.Properties;
    expect(JSON.parse(renderDefinition(view.stack.resolve(DefinitionString))).TimeoutSeconds).toBeGreaterThanOrEqual(
      worstCase,
    );
  });

  // A timed-out or aborted execution skips MarkFailed, which kept the incident's claim forever.
  it('hands every execution that ends unfinished to the worker, which records it FAILED and releases the claim', () => {
    const workerId = view.logicalId(view.stack.analysisWorker.lambda.node.defaultChild as CfnElement);
    const machineId = view.logicalId(view.stack.workflow.stateMachine.node.defaultChild as CfnElement);
    view.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: { stateMachineArn: [{ Ref: machineId }], status: ['FAILED', 'TIMED_OUT', 'ABORTED'] },
      },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [workerId, 'Arn'] } })],
    });
  });

  it('sends any failure to MarkFailed, then fails the execution', () => {
    const { States } = definition();
    for (const name of ['ContextGathering', 'HypothesisGeneration', 'ImpactAssessment', 'RemediationPlanning']) {
      expect(States[name]?.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' }]);
    }
    expect(States.MarkFailed).toMatchObject({
      Parameters: { stage: 'failed', 'input.$': '$' },
      Next: 'AnalysisFailed',
    });
    expect(States.AnalysisFailed?.Type).toBe('Fail');
  });

  it('logs everything and traces', () => {
    view.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({ Level: 'ALL' }),
      TracingConfiguration: { Enabled: true },
    });
  });
});

describe('REST API', () => {
  type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
  /** `GET /api/v1/incident-ticket/{id}` for every method, with its properties in its routes stack's template. */
  const methodKeys = (): Map<string, Record<string, any>> => {
    const templates = new Map(view.stack.api.routeStacks.map((stack, index) => [stack, routes[index]!.toJSON()]));
    return new Map(
      view.stack.api.node
        .findAll()
        // Preflights (OPTIONS, the gateway's own mock answers) are the CORS tests' business.
        .filter((construct): construct is Method => construct instanceof Method && construct.httpMethod !== 'OPTIONS')
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
      [...CONSOLE_PAGES, '/console/app.js', '/console/app.css'].map((path) => `GET ${path}`).sort(),
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
    const logged = inspect(buildApp({ apiLogging: 'existingRole' }));
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
    inspect(buildApp({ rateLimits: 'apikey=30/1m' })).template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 0.5, BurstLimit: 30 },
    });
    expect(envOf(groupFunction('api-keys')).USAGE_PLAN_ID).toEqual({
      Ref: view.logicalId(view.stack.usagePlan.plan.node.defaultChild as never),
    });
  });
});

describe('least privilege', () => {
  it('gives health nothing but the limiter counters', () => {
    const statements = view.statementsOf(groupFunction('health'));
    const nonLog = statements.filter((statement) => actionsOf(statement).some((action) => !action.startsWith('logs:')));
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
      'notification-worker',
      'signals',
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
    expect(mailers.map((group) => group.name).sort()).toEqual(['auth', 'business']);
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
    expect(groupsWith((fn) => 'MAIL_QUEUE_URL' in envOf(fn))).toEqual(['auth', 'business', 'notification-worker']);
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

describe('size', () => {
  it('keeps each stack well under the 500-resource limit, below the 80% at which CDK warns', () => {
    expect(Object.keys(view.template.toJSON().Resources).length).toBeLessThan(400);
    // Every route of the spec is in the table, and with CORS on (the
    // default) each resource has its preflight: ~470 resources, split by subtree into stacks of at most 250.
    expect(routes.length).toBeGreaterThan(1);
    for (const template of routes) expect(Object.keys(template.toJSON().Resources).length).toBeLessThanOrEqual(250);
  });
});
