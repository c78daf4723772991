import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import { fieldMessages } from '#lib/contract/field-messages.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import { ingestDelivery } from '#lib/ingestion/ingest-delivery.ts';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import { PayloadError } from '#lib/ingestion/payload-error.ts';
import { authenticateEventCredential } from '#lib/ingestion/integration-keys/integration-key-service.ts';
import { alertEventSchema, changeEventSchema } from './event-schema.ts';

/** An answer in PagerDuty's own shape, which its senders and client libraries read (not our envelope). */
export interface ForeignAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface EventPost {
  body: unknown;
  rawBody: string;
  headers: Record<string, string>;
}

const invalidEvent = (errors: readonly string[]): ForeignAnswer => ({
  status: 400,
  body: { status: 'invalid event', message: 'Event object is invalid', errors: [...errors] },
});

/**
 * A trigger without a dedup key gets one, as PagerDuty does; it is derived from the body so a retried
 * delivery of the same event merges into the same signal rather than opening a second one.
 */
const withDedupKey = (body: Record<string, unknown>, rawBody: string): Record<string, unknown> =>
  typeof body.dedup_key === 'string' && body.dedup_key
    ? body
    : { ...body, dedup_key: createHash('sha256').update(rawBody).digest('hex').slice(0, 32) };

const receive = async (
  scope: AccountScope,
  sender: IngestionSender,
  schema: z.ZodMiniType,
  post: EventPost,
  answer: (body: Record<string, unknown>) => Record<string, unknown>,
): Promise<ForeignAnswer> => {
  const shape = schema.safeParse(post.body);
  if (!shape.success) return invalidEvent(fieldMessages('body', shape.error));
  const body = sender === 'events-v2' ? withDedupKey(post.body as Record<string, unknown>, post.rawBody) : post.body;
  const credential = await authenticateEventCredential(scope, String((body as { routing_key: string }).routing_key));
  try {
    await ingestDelivery(credential.scope, {
      sender,
      body,
      rawBody: post.rawBody,
      headers: post.headers,
      serviceId: credential.serviceId,
    });
  } catch (error) {
    if (error instanceof PayloadError) return invalidEvent(error.errors);
    throw error;
  }
  return { status: 202, body: answer(body as Record<string, unknown>) };
};

/**
 * `POST /api/v1/events/v2/enqueue` (docs/ingestion.md, "PagerDuty Events API v2"): the routing key names the
 * workspace and service; the event goes through the ingestion path every sender takes, and the 202 comes once
 * it is stored.
 */
export const enqueueAlertEvent = (scope: AccountScope, post: EventPost): Promise<ForeignAnswer> =>
  receive(scope, 'events-v2', alertEventSchema, post, (body) => ({
    status: 'success',
    message: 'Event processed',
    dedup_key: body.dedup_key,
  }));

/** `POST /api/v1/events/v2/change/enqueue`: a change event becomes a CHANGE ticket. */
export const enqueueChangeEvent = (scope: AccountScope, post: EventPost): Promise<ForeignAnswer> =>
  receive(scope, 'events-v2-change', changeEventSchema, post, () => ({
    status: 'success',
    message: 'Change event processed',
  }));
