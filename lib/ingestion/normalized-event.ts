import type { ChangeInput } from '#lib/changes/change-input.ts';
import type { PipelineRunInput } from '#lib/pipelines/pipeline-run-input.ts';
import type { SignalEvent } from '#lib/signals/signal-event.ts';

/** A sender's event as ingestion normalizes it: a signal, and the pipeline run or change it describes. */
export interface NormalizedEvent extends SignalEvent {
  pipelineRun?: PipelineRunInput;
  change?: ChangeInput;
}

export type Normalizer = (body: unknown, headers: Record<string, string>, receivedAt: Date) => NormalizedEvent[];
