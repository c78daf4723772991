import * as z from 'zod/mini';
import type { SignalEvent } from './signal-event.ts';
import { objectKey, type ObjectStore } from '#lib/ports/object-store/object-store.ts';
import type { DeliveryRef } from './delivery-mark.ts';

/**
 * An event put on the `ingestion` queue with the signal id it was answered with, for the ingestion worker
 * to store later: because the table refused it for capacity, or because it came in a batch too large to
 * store while the sender waits.
 */
export interface QueuedSignalEvent {
  workspaceId: string;
  /** The id the sender was given; a new signal of this event takes it, so a redelivery finds it again. */
  signalId: string;
  /** When the event was received: the signal's first and last sighting, not the time the worker runs. */
  receivedAt: string;
  event: SignalEvent;
  delivery?: DeliveryRef;
}

/** The sender name of the delivery a queued event without one is deduplicated under: its own signal id. */
export const QUEUED_EVENT_SENDER = 'ingestion-queue';

/**
 * An event larger than this as JSON travels as an object whose key the message holds: a message may hold
 * 256 KiB, and small messages batch ten to a send.
 */
const INLINE_EVENT_BYTES = 64 * 1024;

const queuedEventObjectKey = (workspaceId: string, signalId: string): string =>
  objectKey(workspaceId, 'queued-events', `${signalId}.json`);

/**
 * The queue message of a queued event: the event itself, or, when large, the key of a transient object
 * holding it (written first, so a message never names a missing object).
 */
export const toQueueMessage = async (objects: ObjectStore, queued: QueuedSignalEvent): Promise<object> => {
  const json = JSON.stringify(queued.event);
  if (Buffer.byteLength(json) <= INLINE_EVENT_BYTES) return queued;
  const key = queuedEventObjectKey(queued.workspaceId, queued.signalId);
  await objects.put(key, json, { transient: true });
  const { event: _event, ...rest } = queued;
  return { ...rest, eventObject: key };
};

const eventSchema = z.looseObject({
  signal: z.looseObject({ name: z.string(), source: z.string(), type: z.string(), severity: z.string() }),
  fingerprint: z.string(),
  action: z.enum(['trigger', 'acknowledge', 'resolve', 'record']),
});

const queueMessage = z
  .object({
    workspaceId: z.string().check(z.minLength(1)),
    signalId: z.string().check(z.minLength(1)),
    receivedAt: z.iso.datetime(),
    event: z.optional(eventSchema),
    eventObject: z.optional(z.string().check(z.minLength(1))),
    delivery: z.optional(z.object({ sender: z.string().check(z.minLength(1)), id: z.string().check(z.minLength(1)) })),
  })
  .check(
    z.refine(
      (message) => (message.event === undefined) !== (message.eventObject === undefined),
      'holds neither or both of event and eventObject',
    ),
    z.refine(
      (message) => message.eventObject?.startsWith(`${message.workspaceId}/`) ?? true,
      'eventObject is outside its workspace',
    ),
  );

/** The queued event a message holds, read from its object when large; anything else is a poison message and throws. */
export const readQueuedSignalEvent = async (objects: ObjectStore, body: string): Promise<QueuedSignalEvent> => {
  const { event, eventObject, ...message } = queueMessage.parse(JSON.parse(body));
  const stored = event ?? eventSchema.parse(JSON.parse(await objects.get(eventObject as string)));
  return { ...message, event: stored } as unknown as QueuedSignalEvent;
};
