import * as z from 'zod/mini';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { Normalizer } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText, senderObject } from '#lib/ingestion/schema-kit.ts';
import { severityFromLevel } from '#lib/ingestion/severity.ts';

const SENDER = 'webhook';

/** The spec's canonical payload. */
const payloadSchema = z.object({
  source: z.string().check(z.trim(), z.minLength(1)),
  title: z.string().check(z.trim(), z.minLength(1)),
  severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
  status: z.enum(['firing', 'resolved']),
  message: optionalText,
  metadata: z.nullish(senderObject),
  timestamp: optionalDateTime,
});

/** `metadata.fingerprint` refines the identity when the sender gives one. */
const fingerprintPartOf = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

/**
 * The generic payload. `resolved` resolves; `firing` triggers. The fingerprint is its source and title, plus
 * `metadata.fingerprint` when given; the sender's own source and severity are kept in metadata.
 */
export const normalizeWebhook: Normalizer = (body, _headers, receivedAt) => {
  const payload = parsePayload(SENDER, payloadSchema, body);
  const metadata = payload.metadata ?? {};
  const refinement = fingerprintPartOf(metadata.fingerprint);
  const service = metadata.serviceId ?? metadata.service;
  return [
    {
      signal: {
        name: payload.title,
        source: SENDER,
        type: 'alert',
        severity: severityFromLevel(payload.severity) ?? 'MEDIUM',
        serviceId: typeof service === 'string' && service ? service : undefined,
        metadata: {
          ...metadata,
          ...compact({ origin: payload.source, message: payload.message, originalSeverity: payload.severity }),
        },
        triggeredAt: payload.timestamp ?? receivedAt.toISOString(),
      },
      fingerprint:
        refinement === undefined
          ? fingerprintOf(payload.source, payload.title)
          : fingerprintOf(payload.source, payload.title, refinement),
      action: payload.status === 'resolved' ? 'resolve' : 'trigger',
    },
  ];
};
