import * as z from 'zod/mini';
import type { Normalizer } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { severityFromLevel } from '#lib/ingestion/severity.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';

const SENDER = 'example-alerts';

const payloadSchema = z.object({
  event_action: z.enum(['trigger', 'resolve']),
  dedup_key: z.string().check(z.minLength(1)),
  payload: z.object({ summary: z.string().check(z.minLength(1)), severity: z.enum(['critical', 'error', 'info']) }),
});

/** An alert in the shape of PagerDuty's Events v2, enough to show a sender's events reaching the signals. */
export const normalizeExampleAlerts: Normalizer = (body, _headers, receivedAt) => {
  const { event_action, dedup_key, payload } = parsePayload(SENDER, payloadSchema, body);
  return [
    {
      signal: {
        name: payload.summary,
        source: SENDER,
        type: 'alert',
        severity: severityFromLevel(payload.severity) ?? 'MEDIUM',
        metadata: { dedupKey: dedup_key },
        triggeredAt: receivedAt.toISOString(),
      },
      fingerprint: fingerprintOf(SENDER, dedup_key),
      action: event_action,
    },
  ];
};
