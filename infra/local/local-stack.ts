import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { GatewayHandler } from '#lib/http/group-handler.ts';
import { systemClock } from '#lib/ports/clock.ts';
import { createIds } from '#lib/ports/ids.ts';
import { createOutboxMailer } from '#lib/ports/mail/outbox-mailer.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { createSqsQueue } from '#lib/ports/queue/sqs-queue.ts';
import { ROUTE_GROUPS, allRoutes, knownRoutes } from '#lib/routes/index.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { createTable } from '#lib/store/table.ts';
import { parseRateLimits } from '#lib/ports/rate-limits.ts';
import { createHttpIdentityProviderClient } from '#lib/ports/identity-provider/http-identity-provider.ts';
import { parseOAuthProviders } from '#lib/ports/identity-provider/oauth-providers.ts';
import { handler as analysisWorker } from '#functions/analysis-worker/index.ts';
import { log } from '#lib/log/logger.ts';
import { ensureTable, startDynamo } from './dynamo-server.ts';
import { createLocalHttpServer } from './http-server.ts';
import { consoleAnswer } from '#functions/console/console-handler.ts';
import { consoleAssetsInMemory } from '../console-build.ts';
import type { ConsoleAsset } from '#lib/console-site/console-site.ts';
import { openMailbox } from './mailbox.ts';
import { createLocalMetrics } from './local-metrics.ts';
import { readMemory } from './local-memory.ts';
import { createLocalHealth } from './local-health.ts';
import { openLocalObjectStore } from './local-object-store.ts';
import { createRouteMatcher } from '#lib/http/route-matcher.ts';
import { createRouteMiss } from '#lib/http/route-miss.ts';
import { DEFAULT_ALLOWED_ORIGINS, parseAllowedOrigins } from '#lib/ports/cors-need.ts';
import { startSqsServer } from './sqs-server.ts';
import { IN_MEMORY, restoreQueues, savedQueuesFile, saveQueues } from './saved-queues.ts';
import { createLocalWorkflow } from './workflow.ts';
import { openLocalSigningKeys } from './local-signing-keys.ts';
import { createPushServiceStandIn } from './push-service-stand-in.ts';
import { createChatStandIn } from './chat-stand-in.ts';
import { openLocalPushKeys } from './local-push-keys.ts';
import type { DeliveryError, LocalStack, LocalStackOptions, StopReport } from './local-stack-shape.ts';
import { SLA_SWEEP_MINUTES } from '#lib/workers/sla-sweep.ts';
import { startLocalWorkers, startMailWorker, startNotificationWorker } from './local-workers.ts';
import { createRequestsInFlight } from './requests-in-flight.ts';
import { openLocalCredentialKeys } from './local-credential-keys.ts';
import { openSmsOutbox } from './sms-outbox.ts';
import { parseIntegrationProviders } from '#lib/ports/integration-providers/integration-providers.ts';
import { openLocalUsagePlan } from './local-usage-plan.ts';
import { createDnsNetwork } from '#lib/ports/network/dns-network.ts';
import { parsePrivateNetworks } from '#lib/ports/network/private-networks.ts';

const LOCAL_TABLE_NAME = 'incident-service';

const readBuiltAsset = (assets: ReadonlyMap<ConsoleAsset, Buffer>, asset: ConsoleAsset): Buffer => {
  const body = assets.get(asset);
  if (!body) throw new Error(`the console build has no ${asset}`);
  return body;
};
/** The local stand-in for the stack's shared unkeyed usage-plan key. */
const LOCAL_UNKEYED_USAGE_KEY = 'local-unkeyed-callers';

const loadGroupHandlers = async (): Promise<Map<string, GatewayHandler>> => {
  const entries = await Promise.all(
    ROUTE_GROUPS.map(async (group) => {
      const module = (await import(`#functions/${group.name}/index.ts`)) as { handler: GatewayHandler };
      return [group.name, module.handler] as const;
    }),
  );
  return new Map(entries);
};

/**
 * The whole service on one machine: the embedded DynamoDB-API and SQS servers with the queue workers,
 * the local workflow runner and mailbox, and an HTTP server that calls every group's handler as API
 * Gateway would.
 */
export const startLocalStack = async ({
  port,
  host = '127.0.0.1',
  dataDir,
  rateLimits,
  oauthProviders,
  integrationProviders,
  appUrl,
  allowedOrigins,
  workers: runWorkers = true,
  slaSweepSeconds = SLA_SWEEP_MINUTES * 60,
  queueSettings,
  reasoner,
  workflowRetryWaitMs,
  outboundPrivateNetworks,
  network,
  clock = systemClock,
}: LocalStackOptions): Promise<LocalStack> => {
  const providers = parseOAuthProviders(oauthProviders);
  const integrationApps = parseIntegrationProviders(integrationProviders);
  const persistent = dataDir !== IN_MEMORY;
  if (persistent) await mkdir(dataDir, { recursive: true });

  const dynamo = await startDynamo(persistent ? join(dataDir, 'dynamodb') : undefined);
  await ensureTable(dynamo.client, LOCAL_TABLE_NAME);
  const sqs = await startSqsServer({ settings: { ...QUEUE_SETTINGS, ...queueSettings } });
  await restoreQueues(sqs, savedQueuesFile(dataDir));
  let url = '';
  const mailbox = await openMailbox(clock, persistent ? join(dataDir, 'mailbox.jsonl') : undefined);
  const smsOutbox = await openSmsOutbox(clock, persistent ? join(dataDir, 'sms.jsonl') : undefined);
  const workflow = createLocalWorkflow({
    stageHandler: analysisWorker,
    endedHandler: analysisWorker,
    retryWaitMs: workflowRetryWaitMs,
  });
  const metrics = createLocalMetrics();
  const memory = () => readMemory({ dynamodb: dynamo.usage, sqs: sqs.usage });
  const health = createLocalHealth({ sqs, metrics, clock, sweepIntervalMs: slaSweepSeconds * 1000 });
  const queue = createSqsQueue(sqs.client, sqs.queueUrl);

  const limits = parseRateLimits(rateLimits);
  const usagePlan = await openLocalUsagePlan({
    file: persistent ? join(dataDir, 'usage-plan.json') : undefined,
    perKey: () => limits.apikey,
    unkeyedUsageKey: LOCAL_UNKEYED_USAGE_KEY,
  });
  const ports: Ports = {
    table: createTable({ name: LOCAL_TABLE_NAME, client: dynamo.client }),
    queue,
    workflow,
    mail: createOutboxMailer(queue, () => (appUrl ?? url).replace(/\/+$/, '')),
    mailDelivery: mailbox,
    objects: openLocalObjectStore(persistent ? join(dataDir, 'objects') : undefined),
    signingKeys: await openLocalSigningKeys(persistent ? join(dataDir, 'signing-keys.json') : undefined),
    pushKeys: await openLocalPushKeys(persistent ? join(dataDir, 'vapid-keys.json') : undefined),
    usagePlan,
    unkeyedUsageKey: LOCAL_UNKEYED_USAGE_KEY,
    rateLimits: limits,
    identityProvider: createHttpIdentityProviderClient(),
    oauthProviders: providers,
    integrations: {
      providers: async () => integrationApps,
      get apiUrl() {
        return url;
      },
    },
    credentialKeys: await openLocalCredentialKeys(persistent ? join(dataDir, 'credentials-key') : undefined),
    sms: smsOutbox,
    network:
      network ??
      // On one machine the receivers a developer points webhooks at listen on its loopback (DECISIONS.md:
      // notifications are real POSTs locally too); every other internal address stays refused.
      createDnsNetwork({
        privateNetworks: parsePrivateNetworks(outboundPrivateNetworks ?? ''),
        allowLoopbackHttp: true,
      }),
    allowedOrigins: parseAllowedOrigins(allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS),
    metrics,
    reasoner: (rules) => reasoner ?? rules,
    clock,
    ids: createIds(clock),
  };
  installPorts(ports);

  const inFlight = createRequestsInFlight();
  const server = createLocalHttpServer({
    routes: createRouteMatcher(allRoutes()),
    routeMiss: createRouteMiss(knownRoutes()),
    allowedOrigins: ports.allowedOrigins,
    usagePlan,
    now: () => clock.now(),
    handlers: await loadGroupHandlers(),
    mailbox,
    metrics,
    memory,
    health,
    mailQueueIdle: () => deliveriesIdle(),
    smsOutbox,
    pushService: createPushServiceStandIn(clock),
    chatApp: createChatStandIn(clock),
    notificationsIdle: () => notificationWorker.idle(),
    inFlight,
    // Served at the root, as the local server serves the API: links in e-mail land on it (APP_URL).
    console: async (path, requestId) =>
      consoleAnswer(path, '', async (asset) => readBuiltAsset(await consoleAssetsInMemory(), asset), requestId),
  });
  server.listen(port, host);
  await once(server, 'listening');
  const { port: boundPort } = server.address() as AddressInfo;
  url = `http://${host}:${boundPort}`;
  const deliveryErrors: DeliveryError[] = [];
  const failedOn = (queue: DeliveryError['queue']) => (error: unknown) => {
    log.error(`the ${queue} worker failed`, { error });
    deliveryErrors.push({ queue, error });
  };
  const mailWorker = startMailWorker(sqs, failedOn('mail'));
  const notificationWorker = startNotificationWorker(sqs, failedOn('notifications'));
  const workers = runWorkers
    ? startLocalWorkers(sqs, { slaSweepMs: slaSweepSeconds * 1000, onSlaSweep: () => health.sweepRan(), inFlight })
    : undefined;
  // Notification e-mail passes the notifications queue first, then the mail queue.
  const deliveriesIdle = async () => {
    await notificationWorker.idle();
    await mailWorker.idle();
  };

  const stop = async (): Promise<StopReport> => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    // A request whose caller hung up holds no connection open, but its function is still running: the store and
    // queues must outlive it, or its next call meets a closed store.
    await inFlight.answered();
    await workers?.stop();
    await notificationWorker.stop();
    await mailWorker.stop();
    await workflow.settled();
    const savedMessages = await saveQueues(sqs, savedQueuesFile(dataDir));
    await sqs.close();
    await dynamo.close();
    installPorts(undefined);
    return { savedMessages };
  };

  return {
    url,
    ports,
    mailbox,
    smsOutbox,
    metrics,
    memory,
    health,
    queues: sqs,
    workers,
    deliveriesIdle,
    deliveryErrors,
    stop,
  };
};
