import {
  REPOSITORY_PATH,
  type PipelineJobStatus,
  type PipelineProvider,
  type PipelineRunInput,
  type PipelineRunStatus,
} from '#lib/pipelines/pipeline-run-input.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { SignalSeverity } from '#lib/signals/signal-event.ts';
import type { NormalizedEvent } from './normalized-event.ts';

/** `refs/heads/main` -> `main`, `refs/tags/v1` -> `v1`; anything else unchanged. */
export const branchFromRef = (ref: string | null | undefined): string | null =>
  ref ? ref.replace(/^refs\/(heads|tags)\//, '') : null;

/** `owner/repo` (or `group/subgroup/project`) from a web or HTTP clone address; undefined if it is not one. */
export const repositoryFromUrl = (url: string | null | undefined): string | undefined => {
  if (!url || !URL.canParse(url)) return undefined;
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return REPOSITORY_PATH.test(path) ? path : undefined;
};

/** `<provider>-<id>`: the key of a provider's run or deployment. */
export const providerKeyOf = (provider: PipelineProvider, id: string): string => `${provider}-${id}`;

/** The run a code host event reports, keyed `<provider>-<run id>`, with the event's body as its latest payload. */
export const pipelineRunOf = (
  provider: PipelineProvider,
  runId: string | number,
  rawPayload: unknown,
  run: Omit<PipelineRunInput, 'runKey' | 'provider' | 'providerRunId' | 'rawPayload'>,
): PipelineRunInput => ({
  runKey: providerKeyOf(provider, String(runId)),
  provider,
  providerRunId: String(runId),
  ...run,
  rawPayload,
});

/**
 * A failure on the default branch breaks what everyone builds on; elsewhere it is one change's problem. When the
 * payload does not name the default branch (code host B's Job Hook, code host C), `main` and `master` are taken.
 */
const failureSeverity = (branch: string | null, defaultBranch: string | null | undefined): SignalSeverity => {
  if (branch === null) return 'MEDIUM';
  const onDefault = defaultBranch ? branch === defaultBranch : branch === 'main' || branch === 'master';
  return onDefault ? 'HIGH' : 'MEDIUM';
};

const VERBS: Readonly<Record<PipelineRunStatus | PipelineJobStatus, string>> = {
  success: 'succeeded',
  failure: 'failed',
  cancelled: 'was cancelled',
  skipped: 'was skipped',
  in_progress: 'is running',
};

/** `Workflow "CI" failed on octo/repo@main`. */
export const describeRun = (
  what: string,
  status: PipelineRunStatus | PipelineJobStatus,
  repository: string,
  branch: string | null,
): string => `${what} ${VERBS[status]} on ${repository}${branch ? `@${branch}` : ''}`;

/** A build's (a run's, a job's, a check's) failure and its severity, for `codeHostEvent`. */
export const buildOutcome = (
  status: PipelineRunStatus | PipelineJobStatus | undefined,
  branch: string | null,
  defaultBranch: string | null | undefined,
): Pick<CodeHostEvent, 'failed' | 'failedSeverity'> => ({
  failed: status === 'failure',
  failedSeverity: failureSeverity(branch, defaultBranch),
});

/** What a deployment's outcome makes of it: a failure triggers a signal, anything else is recorded. */
export const codeHostOutcome = (
  kind: string,
  failed: boolean,
  failedSeverity: SignalSeverity,
): { action: 'trigger' | 'record'; type: string; severity: SignalSeverity } =>
  failed
    ? { action: 'trigger', type: `${kind}_failure`, severity: failedSeverity }
    : { action: 'record', type: kind, severity: 'LOW' };

/** What a code host event says, in the terms every code host's normalizer shares. */
export interface CodeHostEvent {
  /** The sender's name (`codehost-a`), its signals' source. */
  sender: string;
  /** What happened (`pipeline`, `job`, `check_run`, `deployment`, ...). */
  kind: string;
  failed: boolean;
  /** The severity of a failure: `failureSeverity` of the branch for builds, the environment's for deployments. */
  failedSeverity: SignalSeverity;
  name: string;
  metadata: Record<string, unknown>;
  triggeredAt: string;
  fingerprint: string;
}

/**
 * The signal of a code host event: a failure is a problem (`<kind>_failure`, at `failedSeverity`), anything else
 * a LOW record of kind `<kind>`, so records never merge into the problem of the same thing.
 */
export const codeHostEvent = ({
  sender,
  kind,
  failed,
  failedSeverity,
  name,
  metadata,
  triggeredAt,
  fingerprint,
}: CodeHostEvent): NormalizedEvent => {
  const { action, type, severity } = codeHostOutcome(kind, failed, failedSeverity);
  return { signal: { name, source: sender, type, severity, metadata, triggeredAt }, fingerprint, action };
};

/** What a run's event or one of its jobs' says beyond the run itself, for `buildEvent`. */
interface Build {
  sender: string;
  /** The run as this event describes it; a job's event (scope `job`) carries the job in `jobs`. */
  run: PipelineRunInput;
  /** `Workflow "CI"`, `Job "test" of pipeline #12`: how the signal's name starts. */
  what: string;
  /** The run's status on a run's event, the job's on a job's; undefined while the job has none yet. */
  status: PipelineRunStatus | PipelineJobStatus | undefined;
  /** On a job's event: the job's name, which tells its signal from its siblings'. */
  job?: string;
  defaultBranch: string | null | undefined;
  /** A job allowed to fail (code host B's `allow_failure`) fails no build. */
  allowedToFail?: boolean;
  metadata: Record<string, unknown>;
}

/**
 * The event of a CI run or of one of its jobs, whichever code host sent it: a `pipeline` or `job` signal named and
 * fingerprinted by the run (repository, branch, run id, and the job's name on a job's event) at the run's update
 * time, and the run to store.
 */
export const buildEvent = ({
  sender,
  run,
  what,
  status,
  job,
  defaultBranch,
  allowedToFail,
  metadata,
}: Build): NormalizedEvent => {
  const outcome = buildOutcome(status, run.branch, defaultBranch);
  const jobName = job === undefined ? [] : [job];
  return {
    ...codeHostEvent({
      sender,
      kind: run.scope === 'run' ? 'pipeline' : 'job',
      ...outcome,
      failed: outcome.failed && allowedToFail !== true,
      name: describeRun(what, status ?? 'in_progress', run.repository, run.branch),
      metadata,
      triggeredAt: run.updatedAt,
      fingerprint: fingerprintOf(run.repository, run.branch ?? '', run.providerRunId, ...jobName),
    }),
    pipelineRun: run,
  };
};
