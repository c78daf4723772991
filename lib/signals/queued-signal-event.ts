import * as z from 'zod';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import type { DeliveryRef } from './delivery.ts';

/**
 * An event the table refused for capacity, put on the `ingestion` queue with the signal id it was
 * answered with, for the ingestion worker to store later.
 */
export interface QueuedSignalEvent {
  workspaceId: string;
  /** The id the sender was given; a new signal of this event takes it, so a redelivery finds it again. */
  signalId: string;
  /** When the event was received: the signal's first and last sighting, not the time the worker runs. */
  receivedAt: string;
  event: NormalizedEvent;
  delivery?: DeliveryRef;
  /** The PROCESSING delivery the refused attempt left; the worker takes it over as its own. */
  deliveryClaimedAt?: string;
}

/** The sender name of the delivery a queued event without one is deduplicated under: its own signal id. */
export const QUEUED_EVENT_SENDER = 'ingestion-queue';

const queuedSignalEvent = z.object({
  workspaceId: z.string().min(1),
  signalId: z.string().min(1),
  receivedAt: z.iso.datetime(),
  event: z.looseObject({
    signal: z.looseObject({ name: z.string(), source: z.string(), type: z.string(), severity: z.string() }),
    fingerprint: z.string(),
    action: z.enum(['trigger', 'resolve', 'record']),
  }),
  delivery: z.object({ sender: z.string().min(1), id: z.string().min(1) }).optional(),
  deliveryClaimedAt: z.string().optional(),
});

/** The message body as the store wrote it; anything else is a poison message and throws. */
export const parseQueuedSignalEvent = (body: string): QueuedSignalEvent =>
  queuedSignalEvent.parse(JSON.parse(body)) as unknown as QueuedSignalEvent;
