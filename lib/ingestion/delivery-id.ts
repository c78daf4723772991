import { type IngestionSender, senderNamed } from './senders/index.ts';

/** The sender's id of a delivery, the same on its retries (each sender's `deliveryId`); undefined when it gives none. */
export const deliveryIdOf = (
  name: IngestionSender,
  headers: Record<string, string>,
  body: unknown,
): string | undefined => senderNamed(name).deliveryId?.(headers, body);

/**
 * The delivery id of each of a payload's `count` events, for delivery deduplication: the ids the payload gives
 * its events when it names each (a paging-tool v2 message list); else the sender's id of the delivery for a single
 * event, and `<id>#<index>` for each event of a payload that carries several, so a redelivery of the same body
 * matches event by event. Undefined for senders that give no id (metrics alerts, the generic webhook).
 */
export const eventDeliveryIds = (
  name: IngestionSender,
  headers: Record<string, string>,
  body: unknown,
  count: number,
): (string | undefined)[] => {
  const named = senderNamed(name).eventIds?.(body);
  if (named?.length === count) return named;
  const id = deliveryIdOf(name, headers, body);
  return Array.from({ length: count }, (_unused, index) => (id && count > 1 ? `${id}#${index}` : id));
};
