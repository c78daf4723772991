import { normalizeCodehostA } from './codehost-a/index.ts';
import { normalizeCodehostB } from './codehost-b/index.ts';
import { normalizeCodehostC } from './codehost-c.ts';
import { normalizeMetricsAlerts } from './metrics-alerts.ts';
import { normalizeMonitoring } from './monitoring.ts';
import type { IngestionSender, Normalizer } from './normalized-event.ts';
import { normalizeOrchestrator } from './orchestrator.ts';
import { normalizePaging } from './paging.ts';
import { normalizeWebhook } from './webhook.ts';

/** Each ingestion route's normalizer: the sender's body, lower-cased headers and time of receipt to events. */
export const NORMALIZERS: Readonly<Record<IngestionSender, Normalizer>> = {
  'codehost-a': normalizeCodehostA,
  'codehost-b': normalizeCodehostB,
  'codehost-c': normalizeCodehostC,
  orchestrator: normalizeOrchestrator,
  paging: normalizePaging,
  'metrics-alerts': normalizeMetricsAlerts,
  monitoring: normalizeMonitoring,
  webhook: normalizeWebhook,
};
