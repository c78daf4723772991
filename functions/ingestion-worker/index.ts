import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { log } from '#lib/log/logger.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { readQueuedSignalEvent } from '#lib/signals/queued-signal-event.ts';
import { storeQueuedSignalEvent } from '#lib/signals/store-signal-event.ts';
import { ingestionWorker } from '#lib/workers/ingestion-worker.ts';

/**
 * Consumer of the `ingestion` queue: stores the events the table refused for capacity while a sender
 * waited, and the events of batches too large to store while it waits, under the signal id the sender
 * was given. Storing is idempotent per message (the pre-assigned id is both the new signal's id and,
 * without a sender delivery id, the delivery id), so a redelivered message never makes a second signal
 * or counts twice.
 */
export const handler = createQueueHandler(
  ingestionWorker,
  async (ports, record) => {
    const queued = await readQueuedSignalEvent(ports.objects, record.body);
    const stored = await storeQueuedSignalEvent(systemScope(queued.workspaceId, ports), queued);
    log.info('queued signal event stored', { workspaceId: queued.workspaceId, ...stored });
  },
  { order: 'parallel' },
);
