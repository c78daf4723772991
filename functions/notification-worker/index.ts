import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { parseIncidentNotification } from '#lib/incidents/notification-message.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { notificationWorker } from '#lib/workers/notification-worker.ts';

/**
 * What reaches the receivers (on-call, chat, SMS, acknowledge links, escalation contacts) is a chunk the first
 * message loads, so a cold start carries the queue handler only (docs/performance.md, "Bundles and cold imports").
 */
const delivery = onFirstUse(() => import('#lib/notifications/deliver-notification.ts'));

/**
 * Consumer of the `notifications` queue: each event on its own, so a receiver that is down delays only
 * its own event's retry (the queue's visibility timeout is the backoff, the dead-letter queue the end).
 * The events of a batch are delivered side by side: during a receiver's outage each waits out its calls'
 * 3 s limits (the war room's two, the chat post's), and five in a row outran the function's 20 s, failing
 * the whole batch and spending a receive of events never tried. Side by side the batch takes as long as its
 * slowest event, about 9 s; they are different incidents, so nothing of one waits on another.
 */
export const handler = createQueueHandler(
  notificationWorker,
  async (ports, record) =>
    (await delivery()).deliverNotification(systemAccountScope(ports), parseIncidentNotification(record.body)),
  { order: 'parallel' },
);
