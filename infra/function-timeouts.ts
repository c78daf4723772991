import type { QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';

/** Every route group's function: API Gateway gives up after 29 s, and no route should come close. */
const API_FUNCTION_TIMEOUT_SECONDS = 15;

/** Queue consumers run as long as their queue's settings allow, which also set the visibility timeout. */
const CONSUMERS: Record<string, QueueName> = {
  'ingestion-worker': 'ingestion',
  'correlation-worker': 'correlation',
  'mail-worker': 'mail',
  'notification-worker': 'notifications',
};

/** The functions whose timeout is not a route's; each value says why. */
const OWN_TIMEOUTS: Record<string, number> = {
  // Answers two files it read once from its bundle: anything slower is broken, and should fail fast.
  console: 5,
  // Reads every counter's items once a day.
  'counter-recount': 15 * 60,
  // Walks the deadlines that passed in the last five minutes.
  'sla-sweep': 2 * 60,
  // One analysis stage: one model call with its budget (lib/ports/reasoner/bedrock-reasoner.ts), and the reads.
  'analysis-worker': 2 * 60,
};

/**
 * The timeout of each function, by its `functions/` folder name: the one table the stack deploys and the
 * local stack enforces (infra/local/http-server.ts, infra/local/queue-poller.ts, infra/local/workflow.ts),
 * so a request or batch that would time out in Lambda times out locally too.
 */
export const functionTimeoutSeconds = (name: string): number => {
  const queue = CONSUMERS[name];
  if (queue) return QUEUE_SETTINGS[queue].consumerTimeoutSeconds;
  return OWN_TIMEOUTS[name] ?? API_FUNCTION_TIMEOUT_SECONDS;
};
