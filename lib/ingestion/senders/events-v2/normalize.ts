import { createHash } from 'node:crypto';
import type { ChangeInput } from '#lib/changes/change-input.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact } from '#lib/ingestion/schema-kit.ts';
import { severityFromLevel } from '#lib/ingestion/severity.ts';
import { alertEventSchema, changeEventSchema } from './event-schema.ts';

const SENDER = 'events-v2';

/**
 * An alert event: the dedup key is the fingerprint, so triggers merge while the signal is open, a resolve
 * resolves it, and a trigger after the resolve opens a new signal (the signal store's fingerprint claim ends
 * with the resolve); an acknowledge acknowledges it, and its incident after it (docs/decisions.md).
 */
export const normalizeEventsV2: Normalizer = (body, _headers, receivedAt) => {
  const event = parsePayload(SENDER, alertEventSchema, body);
  const { payload, dedup_key: dedupKey } = event;
  if (!dedupKey) throw new PayloadError(SENDER, ['dedup_key: Required for this event_action']);
  if (event.event_action === 'trigger' && !payload) {
    throw new PayloadError(SENDER, ['payload: Required for a trigger']);
  }
  const acknowledge = event.event_action === 'acknowledge';
  return [
    {
      signal: {
        name: payload?.summary ?? `${event.event_action} ${dedupKey}`,
        source: SENDER,
        type: 'alert',
        severity: acknowledge ? 'LOW' : (severityFromLevel(payload?.severity) ?? 'MEDIUM'),
        metadata: compact({
          dedupKey,
          eventAction: event.event_action,
          summary: payload?.summary,
          origin: payload?.source,
          originalSeverity: payload?.severity,
          component: payload?.component,
          group: payload?.group,
          class: payload?.class,
          customDetails: payload?.custom_details,
          client: event.client,
          clientUrl: event.client_url,
          links: event.links,
          images: event.images,
        }),
        triggeredAt: payload?.timestamp ?? receivedAt.toISOString(),
      },
      fingerprint: fingerprintOf(dedupKey),
      action: event.event_action,
    },
  ];
};

/** A change event has no id of its own: its content names it, so a retried delivery is the same change. */
const changeIdOf = (body: unknown): string =>
  createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32);

/** A change event becomes a CHANGE ticket (as a deployment does) and a record signal the analysis can cite. */
export const normalizeChangeEvent: Normalizer = (body, _headers, receivedAt) => {
  const event = parsePayload('events-v2-change', changeEventSchema, body);
  const { payload } = event;
  const id = changeIdOf({ ...event, routing_key: undefined });
  const at = payload.timestamp ?? receivedAt.toISOString();
  const change: ChangeInput = {
    changeKey: `events_v2-${id}`,
    provider: 'events_v2',
    providerDeploymentId: id,
    summary: payload.summary,
    status: 'SUCCEEDED',
    environment: String(payload.custom_details?.environment ?? ''),
    repository: payload.source ?? '',
    commitSha: null,
    deployer: null,
    updatedAt: at,
    occurredAt: at,
  };
  const result: NormalizedEvent = {
    signal: {
      name: payload.summary,
      source: 'events-v2-change',
      type: 'change',
      severity: 'LOW',
      metadata: compact({ origin: payload.source, customDetails: payload.custom_details, links: event.links }),
      triggeredAt: at,
    },
    fingerprint: fingerprintOf('change', id),
    action: 'record',
    change,
  };
  return [result];
};
