import { Duration, type Stack } from 'aws-cdk-lib';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { analysisWorker } from '#lib/workers/analysis-worker.ts';
import { apiKeyAuthorizer } from '#lib/workers/api-key-authorizer.ts';
import { correlationSweep } from '#lib/workers/correlation-sweep.ts';
import { correlationWorker } from '#lib/workers/correlation-worker.ts';
import { counterRecount } from '#lib/workers/counter-recount.ts';
import { ingestionWorker } from '#lib/workers/ingestion-worker.ts';
import { mailWorker } from '#lib/workers/mail-worker.ts';
import { notificationWorker } from '#lib/workers/notification-worker.ts';
import { routeMiss } from '#lib/workers/route-miss.ts';
import { slaSweep } from '#lib/workers/sla-sweep.ts';
import { ServiceFunction, type ServiceFunctionProps } from './constructs/service-function.ts';
import { WorkQueue } from './constructs/work-queue.ts';
import { functionTimeoutSeconds } from './function-timeouts.ts';

/** What every function of the stack shares: retention and tracing of the stage. */
type Shared = Pick<ServiceFunctionProps, 'removalPolicy' | 'logRetention' | 'tracing'>;

/**
 * The functions that are not route groups (queue consumers, sweeps, the authorizer, the route miss) and the work
 * queues that feed them, created in the stack's own scope (as service-secrets.ts does) so their logical ids stay
 * those of earlier deploys.
 */
export const createServiceWorkers = (
  stack: Stack,
  { reserveConcurrency, shared }: { reserveConcurrency: boolean; shared: Shared },
) => {
  // Every worker, with the declaration its grants and environment are derived from.
  const declared: [FunctionDeclaration, ServiceFunction][] = [];
  const worker = (id: string, declaration: FunctionDeclaration, reservedConcurrency?: number) => {
    const fn = new ServiceFunction(stack, id, {
      name: declaration.name,
      description: declaration.description,
      timeout: Duration.seconds(functionTimeoutSeconds(declaration.name)),
      ...(reserveConcurrency && reservedConcurrency !== undefined && { reservedConcurrency }),
      ...shared,
    });
    declared.push([declaration, fn]);
    return fn;
  };
  const functions = {
    ingestionWorker: worker('IngestionWorker', ingestionWorker),
    // The paging path of a storm: each reserves what its event source mappings may use (QUEUE_SETTINGS).
    correlationWorker: worker(
      'CorrelationWorker',
      correlationWorker,
      QUEUE_SETTINGS.correlation.maxConcurrency + QUEUE_SETTINGS['correlation-first'].maxConcurrency,
    ),
    correlationSweep: worker('CorrelationSweep', correlationSweep),
    counterRecount: worker('CounterRecount', counterRecount),
    slaSweep: worker('SlaSweep', slaSweep),
    analysisWorker: worker('AnalysisWorker', analysisWorker),
    apiKeyAuthorizer: worker('ApiKeyAuthorizer', apiKeyAuthorizer),
    mailWorker: worker('MailWorker', mailWorker),
    notificationWorker: worker('NotificationWorker', notificationWorker, QUEUE_SETTINGS.notifications.maxConcurrency),
    routeMiss: worker('RouteMiss', routeMiss),
  };
  const queue = (id: string, name: QueueName, consumer: ServiceFunction) =>
    new WorkQueue(stack, id, { name, consumer: consumer.lambda });
  const queues: Record<QueueName, WorkQueue> = {
    ingestion: queue('IngestionQueue', 'ingestion', functions.ingestionWorker),
    correlation: queue('CorrelationQueue', 'correlation', functions.correlationWorker),
    'correlation-first': queue('CorrelationFirstQueue', 'correlation-first', functions.correlationWorker),
    mail: queue('MailQueue', 'mail', functions.mailWorker),
    notifications: queue('NotificationsQueue', 'notifications', functions.notificationWorker),
  };
  return { functions, declared, queues };
};
