import { ArnFormat, Aws, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Key } from 'aws-cdk-lib/aws-kms';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { RouteGroup } from '#lib/http/route.ts';
import { GATEWAY_BINARY_MEDIA_TYPES } from '#lib/http/binary-media-types.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import type { WorkQueue } from './constructs/work-queue.ts';
import { createServiceWorkers } from './service-workers.ts';
import { ROUTE_GROUPS, allRoutes } from '#lib/routes/index.ts';
import { ENV } from '#lib/ports/env.ts';
import { apiKeyAuthorizer } from '#lib/workers/api-key-authorizer.ts';
import { parseRateLimits } from '#lib/ports/rate-limits.ts';
import { routeMiss } from '#lib/workers/route-miss.ts';
import { AnalysisWorkflow } from './constructs/analysis-workflow.ts';
import { scheduleSweeps } from './constructs/sweep-schedules.ts';
import { addStackOutputs } from './stack-outputs.ts';
import { ApiUsagePlan } from './constructs/api-usage-plan.ts';
import { MailIdentity } from './constructs/mail-identity.ts';
import { PayloadBucket } from './constructs/payload-bucket.ts';
import { ServiceApi } from './constructs/rest-api.ts';
import { ServiceAlarms } from './constructs/service-alarms.ts';
import { PagerHealth } from './constructs/pager-health.ts';
import { ConsoleSite } from './constructs/console-site.ts';
import { ServiceDashboard } from './constructs/service-dashboard.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { ServiceTable } from './constructs/service-table.ts';
import { functionTimeoutSeconds } from './function-timeouts.ts';
import { STAGE_PROFILES, type ServiceSettings } from './settings.ts';
import { createServiceSecrets } from './service-secrets.ts';
import { bindNeeds, declares, type NeedTargets } from './need-bindings.ts';

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
  readonly console: ConsoleSite;
  readonly alarms: ServiceAlarms;
  /** Whether the pager still pages: the sweep, late notifications, SMS delivery and spend, new dead letters. */
  readonly pagerHealth: PagerHealth;
  /** Only when asked for (`-c dashboard=true`): it is the largest fixed cost of an idle stage. */
  readonly dashboard: ServiceDashboard | undefined;
  /** The Lambda of each route group, by group name. */
  readonly groupFunctions: ReadonlyMap<string, ServiceFunction>;
  /** Every function of the stack, route groups and the rest, by its `functions/` folder name. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly analysisWorker: ServiceFunction;
  readonly ingestionWorker: ServiceFunction;
  readonly correlationWorker: ServiceFunction;
  readonly correlationSweep: ServiceFunction;
  readonly counterRecount: ServiceFunction;
  readonly slaSweep: ServiceFunction;
  readonly apiKeyAuthorizer: ServiceFunction;
  readonly mailWorker: ServiceFunction;
  readonly notificationWorker: ServiceFunction;
  /** Answers what the API's catch-all takes: a method or path outside the route table. */
  readonly routeMiss: ServiceFunction;
  /** The integrations' OAuth applications (JSON), and the key that seals their tokens. */
  readonly integrationProviders: Secret;
  /** The seed of the VAPID keys that sign Web Push messages. */
  readonly vapidSecret: Secret;
  readonly credentialsKey: Key;

  constructor(scope: Construct, id: string, props: IncidentServiceStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const profile = STAGE_PROFILES[settings.stage];
    const retained = { removalPolicy: profile.removalPolicy, logRetention: profile.logRetention };
    const traced = { tracing: settings.tracing };

    this.table = new ServiceTable(this, 'Store', {
      removalPolicy: profile.removalPolicy,
      deletionProtection: settings.stage === 'prod',
    });
    this.payloads = new PayloadBucket(this, 'Payloads', { removalPolicy: profile.removalPolicy });
    const workers = createServiceWorkers(this, {
      reserveConcurrency: settings.reserveWorkerConcurrency,
      shared: { ...retained, ...traced },
    });
    ({
      ingestionWorker: this.ingestionWorker,
      correlationWorker: this.correlationWorker,
      correlationSweep: this.correlationSweep,
      counterRecount: this.counterRecount,
      slaSweep: this.slaSweep,
      analysisWorker: this.analysisWorker,
      apiKeyAuthorizer: this.apiKeyAuthorizer,
      mailWorker: this.mailWorker,
      notificationWorker: this.notificationWorker,
      routeMiss: this.routeMiss,
    } = workers.functions);
    this.queues = workers.queues;
    scheduleSweeps(this, {
      correlationSweep: this.correlationSweep.lambda,
      slaSweep: this.slaSweep.lambda,
      counterRecount: this.counterRecount.lambda,
      slaSweepMinutes: settings.slaSweepMinutes,
    });
    this.workflow = new AnalysisWorkflow(this, 'AnalysisWorkflow', {
      worker: this.analysisWorker.lambda,
      workerTimeout: this.analysisWorker.timeout,
      ...retained,
      ...traced,
    });

    const { jwtSecret, vapidSecret, integrationProviders, credentialsKey } = createServiceSecrets(
      this,
      profile.removalPolicy,
    );
    this.integrationProviders = integrationProviders;
    this.vapidSecret = vapidSecret;
    this.credentialsKey = credentialsKey;

    const mail = new MailIdentity(this, 'Mail', {
      mailFrom: settings.mailFrom,
      identity: settings.mailIdentity,
      existing: settings.mailIdentityExists,
    });

    const groups = ROUTE_GROUPS.map((group) => ({
      group,
      fn: new ServiceFunction(this, `${group.name}-function`, {
        name: group.name,
        description: group.description,
        timeout: Duration.seconds(functionTimeoutSeconds(group.name)),
        functionName: declares(group, 'usagePlan') ? this.fixedFunctionName(group.name) : undefined,
        ...retained,
        ...traced,
      }),
    }));
    this.groupFunctions = new Map(groups.map(({ group, fn }) => [group.name, fn]));

    const targets: NeedTargets = {
      table: this.table,
      queues: this.queues,
      workflow: this.workflow,
      payloads: this.payloads,
      mail,
      jwtSecret,
      vapidSecret,
      integrationProviders,
      credentialsKey,
      settings,
      serviceName: this.stackName,
    };
    const declared: [FunctionDeclaration, ServiceFunction][] = [
      ...groups.map(({ group, fn }) => [group, fn] as [FunctionDeclaration, ServiceFunction]),
      ...workers.declared,
    ];
    for (const [declaration, fn] of declared) bindNeeds(targets, fn, declaration);

    this.api = new ServiceApi(this, 'Http', {
      name: this.stackName,
      routes: allRoutes(),
      groupFunctions: new Map(groups.map(({ group, fn }) => [group.name, this.apiTarget(group, fn)])),
      stageName: settings.stage,
      throttle: profile.throttle,
      perKeyLimit: parseRateLimits(settings.rateLimits).apikey.limit,
      binaryMediaTypes: GATEWAY_BINARY_MEDIA_TYPES,
      logging: settings.apiLogging,
      allowedOrigins: settings.allowedOrigins,
      apiKeyAuthorizer: this.apiKeyAuthorizer.lambda,
      routeMiss: this.routeMiss.lambda,
      ...retained,
      ...traced,
    });
    this.usagePlan = new ApiUsagePlan(this, 'UsagePlan', {
      api: this.api.api,
      perKey: parseRateLimits(settings.rateLimits).apikey,
    });
    for (const { fn } of groups.filter(({ group }) => declares(group, 'usagePlan'))) {
      fn.lambda.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.api.api.arnForExecuteApi(),
      });
      this.usagePlan.grantKeyManagement(fn.lambda);
      fn.lambda.addEnvironment(ENV.usagePlanId, this.usagePlan.plan.usagePlanId);
    }

    this.console = new ConsoleSite(this, 'Console', { api: this.api.api, ...retained, ...traced });

    // The stage URL from the API's id alone: the stage itself depends on every function through its methods.
    const apiUrl = `https://${this.api.api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${settings.stage}`;
    // Links in e-mail land on the console, served at the root of the same stage URL unless told otherwise.
    const appUrl = settings.appUrl ?? apiUrl;
    for (const [declaration, fn] of declared) {
      if (declares(declaration, 'mail')) fn.lambda.addEnvironment(ENV.appUrl, appUrl);
      if (declares(declaration, 'integrationProviders')) fn.lambda.addEnvironment(ENV.apiUrl, apiUrl);
      if (declares(declaration, 'unkeyedUsage')) {
        fn.lambda.addEnvironment(ENV.unkeyedUsageKey, this.usagePlan.unkeyedKeyValue);
      }
    }

    this.functions = new Map([
      ...declared.map(([declaration, fn]): [string, ServiceFunction] => [declaration.name, fn]),
      ['console', this.console.fn],
    ]);
    const functions = [...this.functions].map(([name, fn]) => ({ name, fn: fn.lambda }));
    const queues = Object.entries(this.queues).map(([name, queue]) => ({ name, queue }));
    this.alarms = new ServiceAlarms(this, 'Alarms', {
      functions: functions
        // The API's own functions fail as the API's 5xx, which has its alarm.
        .filter(
          ({ name }) =>
            !this.groupFunctions.has(name) && ![apiKeyAuthorizer.name, routeMiss.name, 'console'].includes(name),
        )
        .map(({ fn }) => fn),
      api: this.api.api,
      stateMachine: this.workflow.stateMachine,
      queues,
      alarmEmail: settings.alarmEmail,
    });
    this.pagerHealth = new PagerHealth(this, 'PagerHealth', {
      topic: this.alarms.topic,
      sweep: this.slaSweep.lambda,
      sweepMinutes: settings.slaSweepMinutes,
      deadLetterQueues: queues.map(({ name, queue }) => ({ name, queue: queue.deadLetterQueue })),
      serviceName: this.stackName,
      smsSpendLimitUsd: settings.smsSpendLimitUsd,
      logSmsDelivery: profile.logsSmsDelivery,
    });
    this.dashboard = settings.dashboard
      ? new ServiceDashboard(this, 'Dashboard', {
          serviceName: this.stackName,
          functions,
          api: this.api.api,
          queues,
          stateMachine: this.workflow.stateMachine,
        })
      : undefined;

    addStackOutputs(this, {
      apiUrl: this.api.api.url,
      tableName: this.table.table.tableName,
      usagePlanId: this.usagePlan.plan.usagePlanId,
    });
  }

  private fixedFunctionName(group: string): string {
    return `${this.stackName}-${group}`;
  }

  /**
   * What a group's methods invoke. A usage-plan manager reads the plan's id, the plan depends on the
   * stage, whose deployment depends on every method: a method referring to that function would close a
   * dependency cycle, so its methods reach it by name and it gets its invoke permission in the stack.
   */
  private apiTarget(group: RouteGroup, fn: ServiceFunction): IFunction {
    if (!declares(group, 'usagePlan')) return fn.lambda;
    return LambdaFunction.fromFunctionAttributes(this, `${group.name}-by-name`, {
      functionArn: this.formatArn({
        service: 'lambda',
        resource: 'function',
        resourceName: this.fixedFunctionName(group.name),
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
      skipPermissions: true,
    });
  }
}
