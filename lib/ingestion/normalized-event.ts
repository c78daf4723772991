import type { ChangeInput } from '#lib/changes/change-input.ts';
import type { PipelineRunInput } from '#lib/pipelines/pipeline-run-input.ts';
import type { SignalEvent } from '#lib/signals/signal-event.ts';

/**
 * The ingestion routes (`/api/v1/ingestion/<sender>`, and the paging-tool event APIs `events-v2` and
 * `events-v2-change`, and `opsgenie`); each name is also the normalized `source` of its signals.
 */
export const INGESTION_SENDERS = [
  'codehost-a',
  'codehost-b',
  'codehost-c',
  'orchestrator',
  'paging',
  'metrics-alerts',
  'monitoring',
  'webhook',
  'cloudwatch',
  'eventbridge',
  'events-v2',
  'events-v2-change',
  'opsgenie',
] as const;
export type IngestionSender = (typeof INGESTION_SENDERS)[number];

/** A sender's event as ingestion normalizes it: a signal, and the pipeline run or change it describes. */
export interface NormalizedEvent extends SignalEvent {
  pipelineRun?: PipelineRunInput;
  change?: ChangeInput;
}

export type Normalizer = (body: unknown, headers: Record<string, string>, receivedAt: Date) => NormalizedEvent[];
