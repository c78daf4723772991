import { QUEUE_NAMES, type QueueName } from '#lib/ports/queue/queue.ts';
import type { QueueSettings } from '#lib/ports/queue/queue-settings.ts';

/** The same settings for every work queue, for a test of the queue machinery rather than of one queue. */
export const everyQueue = (settings: QueueSettings): Record<QueueName, QueueSettings> =>
  Object.fromEntries(QUEUE_NAMES.map((name) => [name, settings])) as Record<QueueName, QueueSettings>;
