/**
 * The spec lists `codehost_a` and `codehost_b`; code host C's runs (one per workflow) are `codehost_c`, so its
 * runs are listed and filtered the same way.
 */
export type PipelineProvider = 'codehost_a' | 'codehost_b' | 'codehost_c';
export type PipelineRunStatus = 'success' | 'failure' | 'cancelled' | 'in_progress';
export type PipelineJobStatus = 'success' | 'failure' | 'skipped' | 'cancelled';

export interface PipelineJob {
  name: string;
  status: PipelineJobStatus;
  durationSeconds: number | null;
}

/** A pipeline run as one webhook describes it; the store upserts it by `runKey`. */
export interface PipelineRunInput {
  /** `<provider>-<providerRunId>`: the same run on every event about it, and its record's id. */
  runKey: string;
  provider: PipelineProvider;
  providerRunId: string;
  /**
   * 'run': the event describes the whole run. 'job': the event is about one job; the run fields are what
   * that event knows, enough to create the run when it is still unknown, and only `jobs` is news.
   */
  scope: 'run' | 'job';
  /** `owner/repo` (code host B: the project's full path, which may have subgroups). */
  repository: string;
  branch: string | null;
  commitSha: string | null;
  commitMessage: string | null;
  triggeredBy: string | null;
  status: PipelineRunStatus;
  startedAt: string;
  /** Null while in progress. */
  finishedAt: string | null;
  durationSeconds: number | null;
  /** Finished jobs only; merged into the stored run by name. */
  jobs: PipelineJob[];
  /** The provider's time of this state, so a late, older event never overwrites a newer one. */
  updatedAt: string;
  /** The whole webhook body. */
  rawPayload: unknown;
}

/** `owner/repo`, or a code host B project's full path with its subgroups. */
export const REPOSITORY_PATH = /^[^/\s]+(\/[^/\s]+)+$/;
