import type {
  PipelineJob,
  PipelineJobStatus,
  PipelineProvider,
  PipelineRunStatus,
} from '#lib/pipelines/pipeline-run-input.ts';

export const PIPELINE_PROVIDERS = [
  'codehost_a',
  'codehost_b',
  'codehost_c',
] as const satisfies readonly PipelineProvider[];
export const PIPELINE_RUN_STATUSES = [
  'success',
  'failure',
  'cancelled',
  'in_progress',
] as const satisfies readonly PipelineRunStatus[];
export const PIPELINE_JOB_STATUSES = [
  'success',
  'failure',
  'skipped',
  'cancelled',
] as const satisfies readonly PipelineJobStatus[];

/** A job as the run keeps it: the spec's fields plus the provider's time of the result, which orders re-runs. */
export interface StoredJob extends PipelineJob {
  status: PipelineJobStatus;
  providerUpdatedAt: string;
}

/** A run as the list shows it (the spec's `runs[]` fields). */
export interface PipelineRunSummary {
  id: string;
  provider: PipelineProvider;
  repository: string;
  branch: string | null;
  commitSha: string | null;
  status: PipelineRunStatus;
  startedAt: string;
  finishedAt: string | null;
  durationSeconds: number | null;
}

/** The full record: the summary, the commit and trigger, the jobs by name and the original webhook body. */
export interface PipelineRun extends PipelineRunSummary {
  commitMessage: string | null;
  triggeredBy: string | null;
  jobs: PipelineJob[];
  /** The latest stored webhook body about the run; a string when it had to be cut to fit (`rawPayloadTruncated`). */
  rawPayload: unknown;
  rawPayloadTruncated: boolean;
  createdAt: string;
  updatedAt: string;
}
