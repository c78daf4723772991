import { handler as correlationSweep } from '#functions/correlation-sweep/index.ts';
import { handler as correlationWorker } from '#functions/correlation-worker/index.ts';
import { handler as ingestionWorker } from '#functions/ingestion-worker/index.ts';
import { handler as mailWorker } from '#functions/mail-worker/index.ts';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import { handler as notificationWorker } from '#functions/notification-worker/index.ts';
import { log } from '#lib/log/logger.ts';
import { startQueuePoller, type QueuePoller } from './queue-poller.ts';
import type { LocalSqs } from './sqs-server.ts';
import type { RequestsInFlight } from './requests-in-flight.ts';

/** How often the sweep runs, as the stack's schedule does. */
const SWEEP_INTERVAL_MS = 60_000;

export interface LocalWorkers {
  /** Resolves once the ingestion and both correlation queues are empty and no batch is running. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalWorkerOptions {
  slaSweepMs: number;
  /** Told each finished SLA sweep (the local health). */
  onSlaSweep?: () => void;
  /** The route functions' requests, which the `correlation` trigger yields to (requests-in-flight.ts). */
  inFlight?: RequestsInFlight;
}

/**
 * The queue consumers and the scheduled sweeps of the stack, run locally: each queue's worker behind a
 * poller with Lambda's SQS-trigger semantics, and the correlation and SLA sweeps on timers. A group's first
 * signal (`correlation-first`) never waits for requests: it is what opens an incident.
 */
export const startLocalWorkers = (
  sqs: LocalSqs,
  { slaSweepMs, onSlaSweep, inFlight }: LocalWorkerOptions,
): LocalWorkers => {
  const pollers = [
    startQueuePoller({ sqs, queue: 'ingestion', handler: ingestionWorker }),
    startQueuePoller({ sqs, queue: 'correlation-first', handler: correlationWorker }),
    startQueuePoller({ sqs, queue: 'correlation', handler: correlationWorker, yieldTo: inFlight }),
  ];
  let sweeping: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    sweeping = correlationSweep().catch((error: unknown) => log.error('correlation sweep failed', { error }));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  let slaSweeping: Promise<void> = Promise.resolve();
  const slaTimer = setInterval(() => {
    slaSweeping = slaSweep()
      .then(() => onSlaSweep?.())
      .catch((error: unknown) => log.error('SLA sweep failed', { error }));
  }, slaSweepMs);
  slaTimer.unref();
  return {
    async idle() {
      for (const poller of pollers) await poller.idle();
    },
    async stop() {
      clearInterval(timer);
      clearInterval(slaTimer);
      await Promise.all([sweeping, slaSweeping]);
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
};

/**
 * The mail queue's consumer, delivering to the local mailbox. It runs whether or not the other workers
 * do: reading the mailbox waits for it, and tests that drive a signal worker themselves still sign up.
 */
export const startMailWorker = (sqs: LocalSqs, onError: (error: unknown) => void): QueuePoller =>
  startQueuePoller({ sqs, queue: 'mail', handler: mailWorker, onError });

/**
 * The notifications queue's consumer. Like the mail worker it always runs: it only delivers, and tests
 * that drive the signal workers themselves still see their incidents' notifications.
 */
export const startNotificationWorker = (sqs: LocalSqs, onError: (error: unknown) => void): QueuePoller =>
  startQueuePoller({ sqs, queue: 'notifications', handler: notificationWorker, onError });
