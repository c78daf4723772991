import * as z from 'zod/mini';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { Normalizer } from '#lib/ingestion/normalized-event.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, dateTimeOf, idSchema, optionalText } from '#lib/ingestion/schema-kit.ts';
import { severityFromLevel, severityFromPriority } from '#lib/ingestion/severity.ts';

const SENDER = 'monitoring';

/**
 * `$DATE` and `$LAST_UPDATED`: epoch milliseconds, as text or a number. A variable left as written (the default
 * template posted as documented) is no time.
 */
const templateDateTime = z.nullish(
  dateTimeOf(z.union([z.string(), z.number()]), (value) => /^\$[A-Z][A-Z0-9_]*$/.test(String(value).trim())),
);

/**
 * The monitoring tool's body is a template its user edits. The default template sends `id`, `title`, `body`,
 * `event_type` (the spec's `type`), `date`, `last_updated` and `org`; partner templates add `priority`,
 * `alert_transition`, `aggreg_key`, `tags` and `link`, and any `$VARIABLE` may be added under its own name.
 */
const payloadSchema = z.object({
  id: idSchema,
  type: optionalText,
  event_type: optionalText,
  title: z.string().check(z.minLength(1)),
  body: optionalText,
  priority: z.nullish(z.enum(['normal', 'low'])),
  alert_priority: optionalText,
  alert_type: optionalText,
  alert_transition: optionalText,
  alert_id: z.nullish(idSchema),
  alert_scope: optionalText,
  alert_metric: optionalText,
  aggreg_key: optionalText,
  date: templateDateTime,
  last_updated: templateDateTime,
  link: optionalText,
  tags: z.nullish(z.union([z.string(), z.array(z.string())])),
  org: z.nullish(z.object({ id: z.nullish(idSchema), name: optionalText })),
});
type Payload = z.output<typeof payloadSchema>;

/** `$EVENT_TITLE` starts with the transition: `[Triggered] [Memory Alert]`, `[Recovered] ...`, `[P1] [Warn] ...`. */
const TITLE_TRANSITION =
  /^\s*(?:\[P[1-5]\]\s*)?\[(Recovered|Triggered|Re-Triggered|No Data|Re-No Data|Warn|Re-Warn|Renotify)\]\s*/i;

const transitionOf = (payload: Payload): string | undefined =>
  payload.alert_transition ?? TITLE_TRANSITION.exec(payload.title)?.[1];

/** `a:b,c:d` or `["a:b","c:d"]` as a list. */
const tagsOf = (tags: Payload['tags']): string[] =>
  (typeof tags === 'string' ? tags.split(',') : (tags ?? [])).map((tag) => tag.trim()).filter(Boolean);

/** `$ALERT_PRIORITY` (P1..P5), else `$ALERT_TYPE` (error, warning, info, success), else `$PRIORITY`. */
const severityOf = (payload: Payload, transition: string | undefined): SignalSeverity =>
  severityFromPriority(payload.alert_priority) ??
  (payload.alert_type === 'success' ? 'LOW' : severityFromLevel(payload.alert_type)) ??
  (/warn/i.test(transition ?? '') ? 'MEDIUM' : undefined) ??
  (payload.priority === 'low' ? 'LOW' : 'MEDIUM');

/**
 * A monitoring-tool notification. The `Recovered` transition resolves; every other one triggers. The fingerprint
 * is the aggregation key (shared by a monitor group's triggers and recoveries), else the monitor id and scope,
 * else the title without its transition.
 */
export const normalizeMonitoring: Normalizer = (body, _headers, receivedAt) => {
  const payload = parsePayload(SENDER, payloadSchema, body);
  const eventType = payload.type ?? payload.event_type;
  if (!eventType) {
    throw new PayloadError(SENDER, ['type: Invalid input: expected string, received undefined (or event_type)']);
  }
  const transition = transitionOf(payload);
  const resolved = transition?.toLowerCase() === 'recovered';
  const tags = tagsOf(payload.tags);
  const serviceTag = tags.find((tag) => tag.startsWith('service:'));
  const bareTitle = payload.title.replace(TITLE_TRANSITION, '');
  const fingerprint = payload.aggreg_key
    ? fingerprintOf('aggreg_key', payload.aggreg_key)
    : payload.alert_id
      ? fingerprintOf('alert', payload.alert_id, payload.alert_scope ?? '')
      : fingerprintOf('title', bareTitle);
  return [
    {
      signal: {
        name: bareTitle || payload.title,
        source: SENDER,
        // Constant, not the event type, so a recovery always meets the alert it ends.
        type: 'alert',
        severity: severityOf(payload, transition),
        serviceId: serviceTag?.slice('service:'.length) || undefined,
        metadata: compact({
          eventId: payload.id,
          eventType,
          title: payload.title,
          message: payload.body,
          transition,
          originalPriority: payload.alert_priority ?? payload.priority,
          alertType: payload.alert_type,
          alertId: payload.alert_id,
          scope: payload.alert_scope,
          metric: payload.alert_metric,
          aggregationKey: payload.aggreg_key,
          tags: tags.length > 0 ? tags : undefined,
          url: payload.link,
          organization: payload.org?.name,
        }),
        triggeredAt: payload.date ?? payload.last_updated ?? receivedAt.toISOString(),
      },
      fingerprint,
      action: resolved ? 'resolve' : 'trigger',
    },
  ];
};
