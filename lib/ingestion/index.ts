import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { IngestionSender, Normalizer } from './normalized-event.ts';

/**
 * Each ingestion route's normalizer (the sender's body, lower-cased headers and time of receipt to events),
 * loaded on the route's first delivery: a sender's schema and mapping are a chunk of their own, so an
 * instance that serves one sender never loads the others.
 */
export const NORMALIZERS: Readonly<Record<IngestionSender, () => Promise<Normalizer>>> = {
  'codehost-a': onFirstUse(async () => (await import('./codehost-a/index.ts')).normalizeCodehostA),
  'codehost-b': onFirstUse(async () => (await import('./codehost-b/index.ts')).normalizeCodehostB),
  'codehost-c': onFirstUse(async () => (await import('./codehost-c.ts')).normalizeCodehostC),
  orchestrator: onFirstUse(async () => (await import('./orchestrator.ts')).normalizeOrchestrator),
  paging: onFirstUse(async () => (await import('./paging.ts')).normalizePaging),
  'metrics-alerts': onFirstUse(async () => (await import('./metrics-alerts.ts')).normalizeMetricsAlerts),
  monitoring: onFirstUse(async () => (await import('./monitoring.ts')).normalizeMonitoring),
  webhook: onFirstUse(async () => (await import('./webhook.ts')).normalizeWebhook),
  cloudwatch: onFirstUse(async () => (await import('./cloudwatch/index.ts')).normalizeCloudwatch),
  eventbridge: onFirstUse(async () => (await import('./eventbridge/index.ts')).normalizeEventbridge),
  'events-v2': onFirstUse(async () => (await import('./events-v2/normalize.ts')).normalizeEventsV2),
  'events-v2-change': onFirstUse(async () => (await import('./events-v2/normalize.ts')).normalizeChangeEvent),
  opsgenie: onFirstUse(async () => (await import('./opsgenie/normalize.ts')).normalizeOpsgenie),
};
