import { ArnFormat, Aws, CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import type { RouteGroup } from '#lib/http/route.ts';
import { BINARY_MEDIA_TYPES } from '#lib/http/binary-media-types.ts';
import { QUEUE_NAMES, type QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { ROUTE_GROUPS, allRoutes } from '#lib/routes/index.ts';
import { ENV } from '#lib/runtime/aws-runtime.ts';
import { AnalysisWorkflow } from './constructs/analysis-workflow.ts';
import { ApiUsagePlan } from './constructs/api-usage-plan.ts';
import { PayloadBucket, type PayloadAccess } from './constructs/payload-bucket.ts';
import { ServiceApi } from './constructs/rest-api.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { ServiceTable, type TableAccess } from './constructs/service-table.ts';
import { WorkQueue } from './constructs/work-queue.ts';
import { STAGE_PROFILES, type ServiceSettings } from './settings.ts';

const QUEUE_URL_ENV: Record<QueueName, string> = {
  ingestion: ENV.ingestionQueueUrl,
  correlation: ENV.correlationQueueUrl,
};

/**
 * What each route group's function may reach besides the table; a group not named gets none of it.
 * Table access follows the route table: a group whose routes are all `access: 'read'` reads only.
 */
const GROUP_PERMISSIONS = {
  queueSenders: ['signals', 'ingestion'],
  workflowStarters: ['assistant', 'incidents'],
  mailers: ['auth', 'business'],
  /** The OAuth routes, which verify proofs with the configured providers. */
  oauthVerifiers: ['auth'],
  /** health is public and ingestion takes API keys only: neither verifies an access token. */
  withoutTokens: ['health', 'ingestion'],
  usagePlanManagers: ['api-keys'],
  /** Signal routes read whole signals and may store a large metadata; ingestion only stores. */
  payloadAccess: { signals: 'readWrite', ingestion: 'write' } as Record<string, PayloadAccess>,
  /** health answers from memory; like every route it is rate limited, which needs the limiter counters only. */
  tableAccess: { health: 'none' } as Record<string, TableAccess>,
};

export const tableAccessOf = (group: RouteGroup): TableAccess =>
  GROUP_PERMISSIONS.tableAccess[group.name] ??
  (Object.values(group.routes).every((route) => route.access === 'read') ? 'read' : 'readWrite');

const checkGroupNames = (): void => {
  const known = new Set<string>(ROUTE_GROUPS.map((group) => group.name));
  const { tableAccess, payloadAccess, ...lists } = GROUP_PERMISSIONS;
  const named = [...Object.values(lists).flat(), ...Object.keys(tableAccess), ...Object.keys(payloadAccess)];
  const unknown = named.filter((name) => !known.has(name));
  if (unknown.length) throw new Error(`GROUP_PERMISSIONS names unknown route groups: ${unknown.join(', ')}`);
};

export interface IncidentServiceStackProps extends StackProps {
  settings: ServiceSettings;
}

export class IncidentServiceStack extends Stack {
  readonly table: ServiceTable;
  readonly payloads: PayloadBucket;
  readonly queues: Record<QueueName, WorkQueue>;
  readonly workflow: AnalysisWorkflow;
  readonly api: ServiceApi;
  readonly usagePlan: ApiUsagePlan;
  /** The Lambda of each route group, by group name. */
  readonly groupFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly analysisWorker: ServiceFunction;
  readonly ingestionWorker: ServiceFunction;
  readonly correlationWorker: ServiceFunction;
  readonly correlationSweep: ServiceFunction;

  constructor(scope: Construct, id: string, props: IncidentServiceStackProps) {
    super(scope, id, props);
    checkGroupNames();
    const { settings } = props;
    const profile = STAGE_PROFILES[settings.stage];
    const retained = { removalPolicy: profile.removalPolicy, logRetention: profile.logRetention };

    this.table = new ServiceTable(this, 'Store', {
      removalPolicy: profile.removalPolicy,
      deletionProtection: settings.stage === 'prod',
    });
    this.payloads = new PayloadBucket(this, 'Payloads', { removalPolicy: profile.removalPolicy });
    const worker = (id: string, name: string, description: string, queue?: QueueName) => {
      const fn = new ServiceFunction(this, id, {
        name,
        description,
        ...(queue && { timeout: Duration.seconds(QUEUE_SETTINGS[queue].consumerTimeoutSeconds) }),
        ...retained,
      });
      fn.bindTable(this.table, 'readWrite');
      return fn;
    };
    this.ingestionWorker = worker('IngestionWorker', 'ingestion-worker', 'Stores events queued while the table refused writes', 'ingestion');
    this.correlationWorker = worker('CorrelationWorker', 'correlation-worker', 'Correlates stored signals into incidents', 'correlation');
    this.correlationSweep = worker('CorrelationSweep', 'correlation-sweep', 'Re-queues signals whose correlation message was lost');
    this.queues = {
      ingestion: new WorkQueue(this, 'IngestionQueue', { name: 'ingestion', consumer: this.ingestionWorker.lambda }),
      correlation: new WorkQueue(this, 'CorrelationQueue', { name: 'correlation', consumer: this.correlationWorker.lambda }),
    };
    // Queued events may be objects, and the signals it stores may have one.
    this.payloads.bind(this.ingestionWorker.lambda, 'readWrite');
    // The ingestion worker stores signals, which then go to correlation; the sweep re-sends to it.
    for (const { lambda } of [this.ingestionWorker, this.correlationSweep]) {
      this.queues.correlation.queue.grantSendMessages(lambda);
      lambda.addEnvironment(ENV.correlationQueueUrl, this.queues.correlation.queue.queueUrl);
    }
    new Rule(this, 'CorrelationSweepSchedule', {
      description: 'Runs the correlation sweep every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(this.correlationSweep.lambda)],
    });

    this.analysisWorker = new ServiceFunction(this, 'AnalysisWorker', {
      name: 'analysis-worker',
      description: 'Runs one stage of the incident analysis workflow',
      timeout: Duration.minutes(2),
      ...retained,
    });
    this.analysisWorker.bindTable(this.table, 'readWrite');
    this.workflow = new AnalysisWorkflow(this, 'AnalysisWorkflow', { worker: this.analysisWorker.lambda, ...retained });

    // The stored form of lib/ports/signing-keys: `{ kid, secret, previous? }`, with a generated first key.
    const jwtSecret = new Secret(this, 'JwtSigningKey', {
      description: 'Keys that sign and verify access tokens',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ kid: 'key-1' }),
        generateStringKey: 'secret',
        passwordLength: 64,
        excludePunctuation: true,
      },
      removalPolicy: profile.removalPolicy,
    });
    Validations.of(jwtSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'No rotation function yet: a rotation writes a new key and keeps the old one as `previous`, which the ' +
        'verifiers accept, so it can be done by hand with put-secret-value until a rotation Lambda exists.',
    });

    const functions = new Map<string, ServiceFunction>();
    for (const group of ROUTE_GROUPS) {
      const fn = new ServiceFunction(this, `${group.name}-function`, {
        name: group.name,
        description: group.description,
        functionName: this.isUsagePlanManager(group.name) ? this.fixedFunctionName(group.name) : undefined,
        environment: { [ENV.rateLimits]: settings.rateLimits },
        ...retained,
      });
      const access = tableAccessOf(group);
      fn.bindTable(this.table, access);
      if (access !== 'readWrite') this.table.grantLimiterCounters(fn.lambda);
      if (!GROUP_PERMISSIONS.withoutTokens.includes(group.name)) {
        jwtSecret.grantRead(fn.lambda);
        fn.lambda.addEnvironment(ENV.jwtSecretArn, jwtSecret.secretArn);
      }
      functions.set(group.name, fn);
    }
    this.groupFunctions = functions;
    const functionsOf = (names: readonly string[]): ServiceFunction[] =>
      names.flatMap((name) => functions.get(name) ?? []);

    for (const { lambda } of functionsOf(GROUP_PERMISSIONS.queueSenders)) {
      for (const name of QUEUE_NAMES) {
        this.queues[name].queue.grantSendMessages(lambda);
        lambda.addEnvironment(QUEUE_URL_ENV[name], this.queues[name].queue.queueUrl);
      }
    }
    for (const { lambda } of functionsOf(GROUP_PERMISSIONS.workflowStarters)) {
      this.workflow.stateMachine.grantStartExecution(lambda);
      lambda.addEnvironment(ENV.analysisStateMachineArn, this.workflow.stateMachine.stateMachineArn);
    }
    for (const fn of functionsOf(GROUP_PERMISSIONS.mailers)) this.grantMail(fn, settings.mailFrom);
    for (const [name, access] of Object.entries(GROUP_PERMISSIONS.payloadAccess)) {
      const fn = functions.get(name);
      if (fn) this.payloads.bind(fn.lambda, access);
    }
    for (const { lambda } of functionsOf(GROUP_PERMISSIONS.oauthVerifiers)) {
      lambda.addEnvironment(ENV.oauthProviders, settings.oauthProviders);
    }

    this.api = new ServiceApi(this, 'Http', {
      routes: allRoutes(),
      groupFunctions: new Map([...functions].map(([name, fn]) => [name, this.apiTarget(name, fn)])),
      stageName: settings.stage,
      throttle: profile.throttle,
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      ...retained,
    });
    this.usagePlan = new ApiUsagePlan(this, 'UsagePlan', { api: this.api.api });
    for (const fn of functionsOf(GROUP_PERMISSIONS.usagePlanManagers)) {
      fn.lambda.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.api.api.arnForExecuteApi(),
      });
      this.usagePlan.grantKeyManagement(fn.lambda);
      fn.lambda.addEnvironment(ENV.usagePlanId, this.usagePlan.plan.usagePlanId);
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.api.url, description: 'Base URL of the API stage' });
  }

  private isUsagePlanManager(group: string): boolean {
    return GROUP_PERMISSIONS.usagePlanManagers.includes(group);
  }

  private fixedFunctionName(group: string): string {
    return `${this.stackName}-${group}`;
  }

  /**
   * What a group's methods invoke. A usage-plan manager reads the plan's id, the plan depends on the
   * stage, whose deployment depends on every method: a method referring to that function would close a
   * dependency cycle, so its methods reach it by name and it gets its invoke permission in the stack.
   */
  private apiTarget(group: string, fn: ServiceFunction): IFunction {
    if (!this.isUsagePlanManager(group)) return fn.lambda;
    return LambdaFunction.fromFunctionAttributes(this, `${group}-by-name`, {
      functionArn: this.formatArn({
        service: 'lambda',
        resource: 'function',
        resourceName: this.fixedFunctionName(group),
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
      skipPermissions: true,
    });
  }

  /**
   * SES checks the sending identity, and in the sandbox the recipients' identities too, so the grant
   * names identities by wildcard and pins the sender with `ses:FromAddress` instead.
   */
  private grantMail(fn: ServiceFunction, mailFrom: string): void {
    fn.lambda.addEnvironment(ENV.mailFrom, mailFrom);
    fn.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [`arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/*`],
        conditions: { StringEquals: { 'ses:FromAddress': mailFrom } },
      }),
    );
    Validations.of(fn.lambda.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason:
        'SES authorizes the recipient identities as well while the account is in the sandbox; the ' +
        'ses:FromAddress condition limits the function to the configured sender.',
    });
  }
}
