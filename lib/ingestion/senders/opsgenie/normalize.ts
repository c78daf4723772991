import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { Normalizer } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact } from '#lib/ingestion/schema-kit.ts';
import { severityFromPriority } from '#lib/ingestion/severity.ts';
import { alertActionSchema, createAlertSchema, opsgenieDeliverySchema } from './alert-schema.ts';

const SENDER = 'opsgenie';

/**
 * Opsgenie Alert API calls, as lib/ingestion/opsgenie/receive.ts hands them over: the alias is the fingerprint,
 * so a create merges into the open alert of its alias, a close resolves it, and an acknowledge acknowledges it
 * (and its incident after it).
 */
export const normalizeOpsgenie: Normalizer = (body, _headers, receivedAt) => {
  const { action, alias, alert } = parsePayload(SENDER, opsgenieDeliverySchema, body);
  const at = receivedAt.toISOString();
  if (action !== 'create') {
    const fields = parsePayload(SENDER, alertActionSchema, alert);
    return [
      {
        signal: {
          name: `${action} ${alias}`,
          source: SENDER,
          type: 'alert',
          severity: 'LOW',
          metadata: compact({ alias, action, origin: fields.source, user: fields.user, note: fields.note }),
          triggeredAt: at,
        },
        fingerprint: fingerprintOf(alias),
        action: action === 'close' ? 'resolve' : 'acknowledge',
      },
    ];
  }
  const created = parsePayload(SENDER, createAlertSchema, alert);
  return [
    {
      signal: {
        name: created.message,
        source: SENDER,
        type: 'alert',
        severity: severityFromPriority(created.priority ?? 'P3') ?? 'MEDIUM',
        serviceId: created.entity ?? undefined,
        metadata: compact({
          alias,
          message: created.message,
          description: created.description,
          priority: created.priority ?? 'P3',
          tags: created.tags,
          details: created.details,
          entity: created.entity,
          origin: created.source,
          note: created.note,
          user: created.user,
        }),
        triggeredAt: at,
      },
      fingerprint: fingerprintOf(alias),
      action: 'trigger',
    },
  ];
};
