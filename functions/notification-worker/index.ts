import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { parseIncidentNotification } from '#lib/notifications/notification-message.ts';
import { deliverNotification } from '#lib/notifications/deliver-notification.ts';
import { notificationWorker } from '#lib/workers/notification-worker.ts';

/**
 * Consumer of the `notifications` queue: each event on its own, so a receiver that is down delays only
 * its own event's retry (the queue's visibility timeout is the backoff, the dead-letter queue the end).
 */
export const handler = createQueueHandler(notificationWorker, (ports, record) =>
  deliverNotification(systemAccountScope(ports), parseIncidentNotification(record.body)),
);
