import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalText } from '#lib/ingestion/schema-kit.ts';
import { SENDER, baseMetadata, type Delivery } from './common.ts';

/** Where an event without its own handler happened: the repository, else the account it is about. */
const scopeOf = ({ envelope }: Delivery): string =>
  envelope.repository?.full_name ??
  envelope.organization?.login ??
  envelope.installation?.account?.login ??
  envelope.sender?.login ??
  'unknown';

const pingSchema = z.object({
  zen: optionalText,
  hook_id: z.nullish(storableNumber),
  hook: z.nullish(z.object({ type: optionalText, events: z.nullish(z.array(z.string())) })),
});

export const ping = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pingSchema, delivery.body);
  const scope = scopeOf(delivery);
  return {
    signal: {
      name: `Webhook ping from ${scope}`,
      source: SENDER,
      type: 'ping',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        scope,
        hookId: payload.hook_id,
        hookType: payload.hook?.type,
        hookEvents: payload.hook?.events,
        zen: payload.zen,
      }),
      triggeredAt: delivery.receivedAt,
    },
    fingerprint: fingerprintOf(scope, 'ping', payload.hook_id ?? ''),
    action: 'record',
  };
};

/**
 * Every other event (issues, releases, stars, installations...) is kept as a record. Its fingerprint ends with
 * a digest of the body, which a re-send repeats.
 */
export const otherEvent = (delivery: Delivery): NormalizedEvent => {
  const scope = scopeOf(delivery);
  const { action } = delivery.envelope;
  const digest = createHash('sha256').update(JSON.stringify(delivery.body)).digest('hex').slice(0, 16);
  return {
    signal: {
      name: `${delivery.event}${action ? ` ${action}` : ''} in ${scope}`,
      source: SENDER,
      type: delivery.event,
      severity: 'LOW',
      metadata: compact({ ...baseMetadata(delivery), scope }),
      triggeredAt: delivery.receivedAt,
    },
    fingerprint: fingerprintOf(scope, delivery.event, action ?? '', digest),
    action: 'record',
  };
};
