import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { Normalizer } from '#lib/ingestion/normalized-event.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';

const SENDER = 'orchestrator';

/** A cluster-scoped object (a Node, a PersistentVolume) has no namespace, whatever the spec's table says. */
const objectReferenceSchema = z.object({
  kind: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  namespace: optionalText,
  uid: optionalText,
  fieldPath: optionalText,
});

/**
 * An Event object, core/v1 (`involvedObject`, `message`, `source`, `firstTimestamp`...) or events.k8s.io/v1
 * (`regarding`, `note`, `reportingController`, `deprecated*`).
 */
const eventSchema = z.object({
  apiVersion: optionalText,
  type: z.string().check(z.minLength(1)),
  reason: z.string().check(z.minLength(1)),
  message: optionalText,
  note: optionalText,
  involvedObject: z.optional(objectReferenceSchema),
  regarding: z.optional(objectReferenceSchema),
  metadata: z.nullish(
    z.object({
      name: optionalText,
      namespace: optionalText,
      creationTimestamp: optionalDateTime,
      labels: z.nullish(z.record(z.string(), z.string())),
    }),
  ),
  action: optionalText,
  count: z.nullish(storableNumber),
  deprecatedCount: z.nullish(storableNumber),
  series: z.nullish(z.object({ count: z.nullish(storableNumber), lastObservedTime: optionalDateTime })),
  eventTime: optionalDateTime,
  firstTimestamp: optionalDateTime,
  lastTimestamp: optionalDateTime,
  deprecatedFirstTimestamp: optionalDateTime,
  deprecatedLastTimestamp: optionalDateTime,
  source: z.nullish(z.object({ component: optionalText, host: optionalText })),
  deprecatedSource: z.nullish(z.object({ component: optionalText, host: optionalText })),
  reportingComponent: optionalText,
  reportingController: optionalText,
  reportingInstance: optionalText,
});

/** Warnings that mean lost work or a lost node, not a transient hiccup. */
const HIGH_REASONS = new Set([
  'OOMKilling',
  'SystemOOM',
  'Evicted',
  'EvictionThresholdMet',
  'NodeNotReady',
  'Rebooted',
]);

const severityOf = (type: string, reason: string): SignalSeverity => {
  if (type !== 'Warning') return 'LOW';
  return HIGH_REASONS.has(reason) ? 'HIGH' : 'MEDIUM';
};

/**
 * A Kubernetes Event. `type: Warning` is a problem and `Normal` (or anything else) a record; the fingerprint is the
 * object's kind, namespace and name with the reason, so a recurring warning merges into one signal.
 */
export const normalizeOrchestrator: Normalizer = (body, _headers, receivedAt) => {
  const event = parsePayload(SENDER, eventSchema, body);
  const object = event.regarding ?? event.involvedObject;
  const message = event.note ?? event.message;
  const hasMessage = message !== undefined && message !== null;
  if (!object || !hasMessage) {
    throw new PayloadError(SENDER, [
      ...(object ? [] : ['involvedObject: Invalid input: expected object, received undefined (or regarding)']),
      ...(hasMessage ? [] : ['message: Invalid input: expected string, received undefined (or note)']),
    ]);
  }

  const namespace = object.namespace ?? '';
  const labels = event.metadata?.labels ?? {};
  const warning = event.type === 'Warning';
  const triggeredAt =
    event.series?.lastObservedTime ??
    event.lastTimestamp ??
    event.deprecatedLastTimestamp ??
    event.eventTime ??
    event.firstTimestamp ??
    event.metadata?.creationTimestamp ??
    receivedAt.toISOString();
  return [
    {
      signal: {
        name: `${event.reason}: ${object.kind} ${namespace ? `${namespace}/` : ''}${object.name}`,
        source: SENDER,
        type: warning ? 'k8s_warning' : 'k8s_event',
        severity: severityOf(event.type, event.reason),
        serviceId: labels['app.kubernetes.io/name'] ?? labels.app,
        metadata: compact({
          eventType: event.type,
          reason: event.reason,
          message,
          kind: object.kind,
          namespace: object.namespace,
          name: object.name,
          uid: object.uid,
          fieldPath: object.fieldPath,
          action: event.action,
          count: event.series?.count ?? event.count ?? event.deprecatedCount,
          reportingComponent:
            event.reportingController ||
            event.reportingComponent ||
            event.source?.component ||
            event.deprecatedSource?.component,
          host: event.source?.host || event.deprecatedSource?.host || event.reportingInstance,
          eventName: event.metadata?.name,
          apiVersion: event.apiVersion,
        }),
        triggeredAt,
      },
      fingerprint: fingerprintOf(object.kind, namespace, object.name, event.reason),
      action: warning ? 'trigger' : 'record',
    },
  ];
};
