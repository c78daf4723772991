import type { IngestionSender } from './normalized-event.ts';

/**
 * The sender's id of a delivery, the same on its retries, for delivery deduplication; undefined for senders
 * that give none (metrics alerts, the generic webhook).
 * - code host A: `X-GitHub-Delivery` (kept on redelivery).
 * - paging: `X-Webhook-Id` (v3; kept on retry), else the v3 body's `event.id`. v2 bodies: see `eventDeliveryIds`.
 * - code host B: `Idempotency-Key` (GitLab 17.4+, made to stay the same across retries), else
 *   `X-Gitlab-Event-UUID`. Not `X-Gitlab-Webhook-UUID`: it is new on every request, so a retry never matches.
 * - code host C: the body's `id` (one per event).
 * - monitoring: the body's `id` (the template's `$ID`, the id of the event notified; the spec requires it).
 * - orchestrator: the Event object's `metadata.uid` with its `metadata.resourceVersion`, which changes whenever
 *   the event does (a repeat raises its `count`), so only the same version of the same event matches.
 * - cloudwatch: the SNS message's `MessageId`, the same on each of SNS's retries.
 * - eventbridge: the event's `id`, the same on each of the API destination's retries.
 */
export const deliveryIdOf = (
  sender: IngestionSender,
  headers: Record<string, string>,
  body: unknown,
): string | undefined => {
  const fields = asFields(body);
  switch (sender) {
    case 'codehost-a':
      return nonEmpty(headers['x-github-delivery']);
    case 'paging':
      return nonEmpty(headers['x-webhook-id']) ?? text(asFields(fields.event).id);
    case 'codehost-b':
      return nonEmpty(headers['idempotency-key']) ?? nonEmpty(headers['x-gitlab-event-uuid']);
    case 'codehost-c':
      return text(fields.id);
    case 'monitoring':
      return text(fields.id) ?? (typeof fields.id === 'number' ? String(fields.id) : undefined);
    case 'orchestrator': {
      const metadata = asFields(fields.metadata);
      const uid = text(metadata.uid);
      const version = text(metadata.resourceVersion);
      return uid && version ? `${uid}@${version}` : undefined;
    }
    case 'cloudwatch':
      return text(fields.MessageId);
    case 'eventbridge':
      return text(fields.id);
    default:
      return undefined;
  }
};

/**
 * The delivery id of each of a payload's `count` events: the sender's own id for a single event; `<id>#<index>`
 * for each event of a payload that carries several, so a redelivery of the same body matches event by event.
 * A paging-tool v2 body names each message (`messages[].id`, documented as the message's idempotency key), so
 * each event takes its message's id, wherever the message travels again.
 */
export const eventDeliveryIds = (
  sender: IngestionSender,
  headers: Record<string, string>,
  body: unknown,
  count: number,
): (string | undefined)[] => {
  const messages = sender === 'paging' ? asFields(body).messages : undefined;
  if (Array.isArray(messages) && messages.length === count) {
    return messages.map((message) => text(asFields(message).id));
  }
  const id = deliveryIdOf(sender, headers, body);
  return Array.from({ length: count }, (_unused, index) => (id && count > 1 ? `${id}#${index}` : id));
};

type Fields = Record<string, unknown>;

const asFields = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? nonEmpty(value) : undefined);

const nonEmpty = (value: string | undefined): string | undefined => value?.trim() || undefined;
