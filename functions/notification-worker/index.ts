import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { parseIncidentNotification } from '#lib/notifications/notification-message.ts';
import { onFirstUse } from '#lib/ports/on-first-use.ts';
import { notificationWorker } from '#lib/workers/notification-worker.ts';

/**
 * What reaches the receivers (on-call, chat, SMS, acknowledge links, escalation contacts) is a chunk the first
 * message loads, so a cold start carries the queue handler only (docs/performance.md, "Bundles and cold imports").
 */
const delivery = onFirstUse(() => import('#lib/notifications/deliver-notification.ts'));

/**
 * Consumer of the `notifications` queue: each event on its own, so a receiver that is down delays only
 * its own event's retry (the queue's visibility timeout is the backoff, the dead-letter queue the end).
 */
export const handler = createQueueHandler(notificationWorker, async (ports, record) =>
  (await delivery()).deliverNotification(ports, parseIncidentNotification(record.body)),
);
