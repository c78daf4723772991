import * as z from 'zod/mini';
import { isStorableNumber, storableNumber } from '#lib/store/stored-json.ts';
import type { Normalizer } from '#lib/ingestion/normalized-event.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { severityFromLevel } from '#lib/ingestion/severity.ts';

const SENDER = 'metrics-alerts';

/** Kept in the signal's metadata. */
const labelsSchema = z.record(z.string(), z.string());

/** Alertmanager's webhook body (version 4). */
const notificationSchema = z.object({
  receiver: z.string(),
  status: z.enum(['firing', 'resolved']),
  alerts: z
    .array(
      z.object({
        status: z.enum(['firing', 'resolved']),
        labels: labelsSchema,
        annotations: z.nullish(labelsSchema),
        startsAt: optionalDateTime,
        endsAt: optionalDateTime,
        generatorURL: optionalText,
        fingerprint: optionalText,
      }),
    )
    .check(z.minLength(1)),
  groupKey: optionalText,
  externalURL: optionalText,
  truncatedAlerts: z.nullish(storableNumber),
});

/** `page` is the conventional label of alerts that page someone; unknown or missing levels are MEDIUM. */
const severityOf = (level: string | undefined): SignalSeverity => severityFromLevel(level) ?? 'MEDIUM';

/** The label set in Prometheus notation, sorted: what identifies an alert when it has no `fingerprint`. */
const labelSetOf = (labels: Record<string, string>): string =>
  `{${Object.keys(labels)
    .sort()
    .map((name) => `${name}=${JSON.stringify(labels[name])}`)
    .join(',')}}`;

/**
 * A number the rule put in a `value` annotation (`{{ $value }}`), if any. One the table cannot keep exactly
 * (`1e+20`) is left out: the annotation, kept in metadata, still has it as text.
 */
const alertValue = (annotations: Record<string, string>): number | undefined => {
  const value = annotations.value === undefined ? Number.NaN : Number.parseFloat(annotations.value);
  return isStorableNumber(value) ? value : undefined;
};

/**
 * An Alertmanager notification: one event per alert. Each alert's own `status` decides (a group's status is
 * `firing` while any of its alerts fires); the fingerprint is the alert's `fingerprint`, else its sorted labels,
 * both the same for an alert firing and resolved.
 */
export const normalizeMetricsAlerts: Normalizer = (body, _headers, receivedAt) => {
  const notification = parsePayload(SENDER, notificationSchema, body);
  return notification.alerts.map((alert) => {
    const annotations = alert.annotations ?? {};
    const { alertname, severity } = alert.labels;
    const resolved = alert.status === 'resolved';
    return {
      signal: {
        name: alertname ?? annotations.summary ?? labelSetOf(alert.labels),
        source: SENDER,
        type: 'alert',
        severity: severityOf(severity),
        serviceId: alert.labels.service ?? alert.labels.job,
        value: alertValue(annotations),
        metadata: compact({
          status: alert.status,
          summary: annotations.summary,
          description: annotations.description,
          labels: alert.labels,
          annotations,
          originalSeverity: severity,
          startsAt: alert.startsAt,
          endsAt: resolved ? alert.endsAt : undefined,
          alertFingerprint: alert.fingerprint,
          generatorUrl: alert.generatorURL,
          receiver: notification.receiver,
          groupKey: notification.groupKey,
          externalUrl: notification.externalURL,
          truncatedAlerts: notification.truncatedAlerts || undefined,
        }),
        triggeredAt: alert.startsAt ?? receivedAt.toISOString(),
      },
      fingerprint: alert.fingerprint || labelSetOf(alert.labels),
      action: resolved ? 'resolve' : 'trigger',
    };
  });
};
