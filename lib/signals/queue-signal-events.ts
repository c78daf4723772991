import type { Scope } from '#lib/identity/scope.ts';
import { toQueueMessage, type QueuedSignalEvent } from './queued-signal-event.ts';
import type { SignalEventInput, StoredSignalEvent } from './store-signal-event.ts';

/**
 * Puts events on the ingestion queue with pre-assigned signal ids, for the ingestion worker to store:
 * how a batch too large to store while the sender waits is accepted. Once this returns, every event is
 * durable in SQS (or in object storage, named by its message), so the sender may get its 2xx; if it
 * throws, the sender gets a 5xx and sends the batch again, whose events then merge by fingerprint, and
 * by delivery id where the sender gives one. The worker stores each message once however often SQS
 * delivers it.
 */
export const queueSignalEvents = async (
  scope: Scope,
  inputs: readonly SignalEventInput[],
): Promise<StoredSignalEvent[]> => {
  const { ports, workspaceId } = scope;
  if (inputs.length === 0) return [];
  const receivedAt = ports.clock.now().toISOString();
  const queued: QueuedSignalEvent[] = inputs.map(({ event, delivery }) => ({
    workspaceId,
    signalId: ports.ids.sortable(),
    receivedAt,
    event,
    ...(delivery && { delivery }),
  }));
  const messages = await Promise.all(queued.map((entry) => toQueueMessage(ports.objects, entry)));
  await ports.queue.send('ingestion', messages);
  return queued.map(({ signalId }) => ({ signalId, deduplicated: false, resolved: false, queued: true }));
};
