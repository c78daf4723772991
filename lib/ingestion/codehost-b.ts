import * as z from 'zod';
import { storableNumber } from '#lib/store/stored-json.ts';
import {
  branchFromRef,
  codeHostOutcome,
  deploymentFailureSeverity,
  describeRun,
  failureSeverity,
  REPOSITORY_PATH,
  repositoryFromUrl,
  providerKeyOf,
} from './code-host.ts';
import { fingerprintOf } from './fingerprint.ts';
import type {
  ChangeStatus,
  NormalizedEvent,
  PipelineJob,
  PipelineJobStatus,
  PipelineRunStatus,
} from './normalized-event.ts';
import { PayloadError, parsePayload } from './payload-error.ts';
import { compact, lookupTable, optionalText } from './schema-kit.ts';
import { latestTimestamp, secondsBetween, toIsoTimestamp } from './timestamps.ts';

const SENDER = 'codehost-b';
const PROVIDER = 'codehost_b';

const projectSchema = z.object({
  id: storableNumber.nullish(),
  path_with_namespace: z.string().regex(REPOSITORY_PATH, 'Invalid input: expected group/project'),
  web_url: optionalText,
  default_branch: optionalText,
});

const userSchema = z.object({ username: optionalText, email: optionalText, name: optionalText }).nullish();

/**
 * What every hook carries. The spec requires `project`, but the Job Hook (`object_kind: "build"`) has none:
 * it names the project by `project_id`, `project_name` and `repository`.
 */
const envelopeSchema = z.object({
  object_kind: z.string().min(1),
  project: projectSchema.optional(),
  user: userSchema,
});

interface Delivery {
  kind: string;
  event: string | undefined;
  project: z.output<typeof projectSchema> | undefined;
  user: z.output<typeof userSchema>;
  body: unknown;
  receivedAt: string;
}

const RUN_STATUSES = lookupTable<PipelineRunStatus>({
  success: 'success',
  failed: 'failure',
  canceled: 'cancelled',
  canceling: 'cancelled',
  skipped: 'cancelled',
});

/** Created, pending, running, manual (blocked), scheduled...: not finished yet. */
const runStatusOf = (status: string | null | undefined): PipelineRunStatus =>
  RUN_STATUSES.get(status ?? '') ?? 'in_progress';

const JOB_STATUSES = lookupTable<PipelineJobStatus>({
  success: 'success',
  failed: 'failure',
  canceled: 'cancelled',
  canceling: 'cancelled',
  skipped: 'skipped',
});

/**
 * A job's status, or undefined while it may still run. Once its run has finished, a job that never started
 * (created, manual) was skipped.
 */
const jobStatusOf = (status: string | null | undefined, runStatus: PipelineRunStatus): PipelineJobStatus | undefined =>
  JOB_STATUSES.get(status ?? '') ?? (runStatus === 'in_progress' ? undefined : 'skipped');

const baseMetadata = ({ kind, event, project, user }: Delivery) => ({
  objectKind: kind,
  event,
  repository: project?.path_with_namespace,
  repositoryUrl: project?.web_url,
  user: user?.username,
});

const buildSchema = z.object({
  id: storableNumber,
  name: z.string(),
  stage: optionalText,
  status: optionalText,
  started_at: optionalText,
  finished_at: optionalText,
  duration: storableNumber.nullish(),
  allow_failure: z.boolean().nullish(),
});

const pipelineSchema = z.object({
  project: projectSchema,
  object_attributes: z.object({
    id: storableNumber,
    iid: storableNumber.nullish(),
    ref: optionalText,
    tag: z.boolean().nullish(),
    sha: optionalText,
    source: optionalText,
    status: z.string(),
    detailed_status: optionalText,
    url: optionalText,
    created_at: optionalText,
    finished_at: optionalText,
    duration: storableNumber.nullish(),
  }),
  commit: z.object({ message: optionalText, url: optionalText }).nullish(),
  merge_request: z.object({ iid: storableNumber.nullish(), url: optionalText }).nullish(),
  builds: z.array(buildSchema).nullish(),
});

const jobOf = (
  build: z.output<typeof buildSchema>,
  runStatus: PipelineRunStatus,
): PipelineJob | undefined => {
  const status = jobStatusOf(build.status, runStatus);
  if (!status) return undefined;
  const startedAt = toIsoTimestamp(build.started_at);
  // The documented example gives never-started jobs a duration; a job that never ran took no time.
  const durationSeconds = startedAt
    ? (build.duration ?? secondsBetween(startedAt, toIsoTimestamp(build.finished_at)))
    : null;
  return { name: build.name, status, durationSeconds };
};

const pipeline = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pipelineSchema, delivery.body);
  const { project, object_attributes: run } = payload;
  const status = runStatusOf(run.status);
  const branch = run.ref ?? null;
  const builds = payload.builds ?? [];
  const startedAt = toIsoTimestamp(run.created_at) ?? delivery.receivedAt;
  // The hook has no update time: the latest time it mentions orders its states.
  const updatedAt =
    latestTimestamp(
      startedAt,
      toIsoTimestamp(run.finished_at),
      ...builds.flatMap((build) => [toIsoTimestamp(build.started_at), toIsoTimestamp(build.finished_at)]),
    ) ?? startedAt;
  const finishedAt = status === 'in_progress' ? null : (toIsoTimestamp(run.finished_at) ?? updatedAt);
  const outcome = codeHostOutcome('pipeline', status === 'failure', failureSeverity(branch, project.default_branch));
  return {
    signal: {
      name: describeRun(`Pipeline #${run.id}`, status, project.path_with_namespace, branch),
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        pipelineId: run.id,
        branch,
        tag: run.tag,
        commitSha: run.sha,
        status: run.status,
        detailedStatus: run.detailed_status,
        pipelineSource: run.source,
        failedJobs: builds.filter((build) => build.status === 'failed').map((build) => build.name),
        mergeRequestUrl: payload.merge_request?.url,
        url: run.url ?? (project.web_url ? `${project.web_url}/-/pipelines/${run.id}` : undefined),
      }),
      triggeredAt: updatedAt,
    },
    fingerprint: fingerprintOf(project.path_with_namespace, branch ?? '', run.id),
    action: outcome.action,
    pipelineRun: {
      runKey: providerKeyOf(PROVIDER, String(run.id)),
      provider: PROVIDER,
      providerRunId: String(run.id),
      scope: 'run',
      repository: project.path_with_namespace,
      branch,
      commitSha: run.sha ?? null,
      commitMessage: payload.commit?.message ?? null,
      triggeredBy: delivery.user?.username ?? null,
      status,
      startedAt,
      finishedAt,
      durationSeconds: run.duration ?? secondsBetween(startedAt, finishedAt),
      jobs: builds.flatMap((build) => jobOf(build, status) ?? []),
      updatedAt,
      rawPayload: delivery.body,
    },
  };
};

const jobHookSchema = z.object({
  ref: optionalText,
  tag: z.boolean().nullish(),
  sha: optionalText,
  build_id: storableNumber,
  build_name: z.string(),
  build_stage: optionalText,
  build_status: z.string(),
  build_created_at: optionalText,
  build_started_at: optionalText,
  build_finished_at: optionalText,
  build_duration: storableNumber.nullish(),
  build_allow_failure: z.boolean().nullish(),
  build_failure_reason: optionalText,
  pipeline_id: storableNumber,
  project_id: storableNumber,
  project_name: optionalText,
  commit: z
    .object({
      message: optionalText,
      status: optionalText,
      duration: storableNumber.nullish(),
      started_at: optionalText,
      finished_at: optionalText,
    })
    .nullish(),
  repository: z.object({ homepage: optionalText, git_http_url: optionalText }).nullish(),
  environment: z.object({ name: optionalText }).nullish(),
});

/** The Job Hook: one job of a pipeline, added to its run once finished; a failure not allowed to fail is a problem. */
const job = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, jobHookSchema, delivery.body);
  // `project_name` is the display name (`John Smith / release-tools-fake`); the path is in the addresses.
  const repository =
    delivery.project?.path_with_namespace ??
    repositoryFromUrl(payload.repository?.homepage) ??
    repositoryFromUrl(payload.repository?.git_http_url);
  if (!repository) {
    throw new PayloadError(SENDER, ['repository.homepage: Invalid input: expected the project address (or a project)']);
  }
  const branch = payload.ref ?? null;
  const runStatus = runStatusOf(payload.commit?.status);
  const jobStatus = JOB_STATUSES.get(payload.build_status);
  const startedAt =
    toIsoTimestamp(payload.commit?.started_at) ??
    toIsoTimestamp(payload.build_created_at) ??
    toIsoTimestamp(payload.build_started_at) ??
    delivery.receivedAt;
  const jobStartedAt = toIsoTimestamp(payload.build_started_at);
  const jobFinishedAt = toIsoTimestamp(payload.build_finished_at);
  const updatedAt =
    latestTimestamp(toIsoTimestamp(payload.build_created_at), jobStartedAt, jobFinishedAt) ?? delivery.receivedAt;
  // `commit` describes the pipeline as of this job's event.
  const runFinishedAt = runStatus === 'in_progress' ? null : (toIsoTimestamp(payload.commit?.finished_at) ?? updatedAt);
  const failed = jobStatus === 'failure' && payload.build_allow_failure !== true;
  const outcome = codeHostOutcome('job', failed, failureSeverity(branch, delivery.project?.default_branch));
  return {
    signal: {
      name: describeRun(
        `Job "${payload.build_name}" of pipeline #${payload.pipeline_id}`,
        jobStatus ?? 'in_progress',
        repository,
        branch,
      ),
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        repository,
        pipelineId: payload.pipeline_id,
        jobId: payload.build_id,
        job: payload.build_name,
        stage: payload.build_stage,
        status: payload.build_status,
        allowFailure: payload.build_allow_failure,
        failureReason: jobStatus === 'failure' ? payload.build_failure_reason : undefined,
        branch,
        commitSha: payload.sha,
        environment: payload.environment?.name,
        url: payload.repository?.homepage ? `${payload.repository.homepage}/-/jobs/${payload.build_id}` : undefined,
      }),
      triggeredAt: updatedAt,
    },
    fingerprint: fingerprintOf(repository, branch ?? '', payload.pipeline_id, payload.build_name),
    action: outcome.action,
    pipelineRun: {
      runKey: providerKeyOf(PROVIDER, String(payload.pipeline_id)),
      provider: PROVIDER,
      providerRunId: String(payload.pipeline_id),
      scope: 'job',
      repository,
      branch,
      commitSha: payload.sha ?? null,
      commitMessage: payload.commit?.message ?? null,
      triggeredBy: delivery.user?.username ?? null,
      status: runStatus,
      startedAt,
      finishedAt: runFinishedAt,
      durationSeconds: runFinishedAt ? (payload.commit?.duration ?? secondsBetween(startedAt, runFinishedAt)) : null,
      jobs: jobStatus
        ? [
            {
              name: payload.build_name,
              status: jobStatus,
              durationSeconds: payload.build_duration ?? secondsBetween(jobStartedAt, jobFinishedAt),
            },
          ]
        : [],
      updatedAt,
      rawPayload: delivery.body,
    },
  };
};

const deploymentSchema = z.object({
  project: projectSchema,
  status: z.string(),
  status_changed_at: optionalText,
  deployment_id: storableNumber,
  deployable_url: optionalText,
  environment: z.string(),
  environment_external_url: optionalText,
  short_sha: optionalText,
  commit_url: optionalText,
  commit_title: optionalText,
  ref: optionalText,
});

const CHANGE_STATUSES = lookupTable<ChangeStatus>({
  created: 'PENDING',
  blocked: 'PENDING',
  running: 'IN_PROGRESS',
  success: 'SUCCEEDED',
  failed: 'FAILED',
  canceled: 'CANCELLED',
});

/** The hook gives the full commit only inside `commit_url`, beside the short `short_sha`. */
const commitShaOf = (commitUrl: string | null | undefined, shortSha: string | null | undefined): string | null =>
  /\/commit\/([0-9a-f]{40})$/.exec(commitUrl ?? '')?.[1] ?? shortSha ?? null;

const deployment = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, deploymentSchema, delivery.body);
  const repository = payload.project.path_with_namespace;
  const status = CHANGE_STATUSES.get(payload.status) ?? 'PENDING';
  const updatedAt = toIsoTimestamp(payload.status_changed_at) ?? delivery.receivedAt;
  const target = `${repository}${payload.ref ? `@${payload.ref}` : ''} to ${payload.environment}`;
  const outcome = codeHostOutcome('deployment', status === 'FAILED', deploymentFailureSeverity(payload.environment));
  return {
    signal: {
      name: `Deployment of ${target}: ${payload.status}`,
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        deploymentId: payload.deployment_id,
        environment: payload.environment,
        environmentUrl: payload.environment_external_url,
        ref: payload.ref,
        commitSha: commitShaOf(payload.commit_url, payload.short_sha),
        commitTitle: payload.commit_title,
        status: payload.status,
        url: payload.deployable_url,
      }),
      triggeredAt: updatedAt,
    },
    fingerprint: fingerprintOf(repository, 'deployment', payload.deployment_id),
    action: outcome.action,
    change: {
      changeKey: providerKeyOf(PROVIDER, String(payload.deployment_id)),
      provider: PROVIDER,
      providerDeploymentId: String(payload.deployment_id),
      summary: `Deploy ${target}${payload.commit_title ? `: ${payload.commit_title}` : ''}`,
      status,
      environment: payload.environment,
      repository,
      commitSha: commitShaOf(payload.commit_url, payload.short_sha),
      deployer: delivery.user?.email ?? delivery.user?.username ?? null,
      updatedAt,
    },
  };
};

const pushSchema = z.object({
  project: projectSchema,
  ref: z.string(),
  before: optionalText,
  after: z.string(),
  checkout_sha: optionalText,
  user_username: optionalText,
  user_email: optionalText,
  total_commits_count: storableNumber.nullish(),
  commits: z.array(z.object({ message: optionalText, timestamp: optionalText, url: optionalText })).nullish(),
});

/** Push and Tag Push Hooks. */
const push = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pushSchema, delivery.body);
  const repository = payload.project.path_with_namespace;
  const count = payload.total_commits_count ?? payload.commits?.length ?? 0;
  const head = payload.commits?.at(-1);
  return {
    signal: {
      name: `Push to ${repository}@${branchFromRef(payload.ref)} (${count} commit${count === 1 ? '' : 's'})`,
      source: SENDER,
      type: delivery.kind,
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        user: payload.user_username,
        pusher: payload.user_email,
        ref: payload.ref,
        before: payload.before,
        after: payload.after,
        commitCount: count,
        headCommitMessage: head?.message,
        url: head?.url,
      }),
      triggeredAt: toIsoTimestamp(head?.timestamp) ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, delivery.kind, payload.ref, payload.after),
    action: 'record',
  };
};

const mergeRequestSchema = z.object({
  project: projectSchema,
  object_attributes: z.object({
    iid: storableNumber,
    title: z.string(),
    action: optionalText,
    state: optionalText,
    source_branch: optionalText,
    target_branch: optionalText,
    url: optionalText,
    updated_at: optionalText,
  }),
});

const mergeRequest = (delivery: Delivery): NormalizedEvent => {
  const { project, object_attributes: mr } = parsePayload(SENDER, mergeRequestSchema, delivery.body);
  const happened = mr.action ?? mr.state ?? 'updated';
  return {
    signal: {
      name: `Merge request !${mr.iid} ${happened} in ${project.path_with_namespace}: ${mr.title}`,
      source: SENDER,
      type: 'merge_request',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        iid: mr.iid,
        title: mr.title,
        action: mr.action,
        state: mr.state,
        sourceBranch: mr.source_branch,
        targetBranch: mr.target_branch,
        url: mr.url,
      }),
      triggeredAt: toIsoTimestamp(mr.updated_at) ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(project.path_with_namespace, 'merge_request', mr.iid),
    action: 'record',
  };
};

/** Issues, notes, releases, wiki pages...: kept as records, one per object and action. */
const otherHook = (delivery: Delivery): NormalizedEvent => {
  const attributes = (delivery.body as { object_attributes?: unknown }).object_attributes;
  const { id, action } =
    typeof attributes === 'object' && attributes !== null ? (attributes as { id?: unknown; action?: unknown }) : {};
  const repository = delivery.project?.path_with_namespace ?? 'unknown';
  return {
    signal: {
      name: `${delivery.event ?? delivery.kind} in ${repository}`,
      source: SENDER,
      type: delivery.kind,
      severity: 'LOW',
      metadata: compact(baseMetadata(delivery)),
      triggeredAt: delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, delivery.kind, String(id ?? ''), String(action ?? '')),
    action: 'record',
  };
};

const HANDLERS = lookupTable<(delivery: Delivery) => NormalizedEvent>({
  pipeline,
  build: job,
  deployment,
  push,
  tag_push: push,
  merge_request: mergeRequest,
});

/**
 * Code host B webhooks, by the body's `object_kind` (`X-Gitlab-Event` is kept in metadata). Failed pipelines,
 * failed jobs not allowed to fail and failed deployments are problems; everything else is a record.
 */
export const normalizeCodehostB = (
  body: unknown,
  headers: Record<string, string>,
  receivedAt: Date,
): NormalizedEvent[] => {
  const envelope = parsePayload(SENDER, envelopeSchema, body);
  if (envelope.object_kind !== 'build' && !envelope.project) {
    throw new PayloadError(SENDER, ['project: Invalid input: expected object, received undefined']);
  }
  const handler = HANDLERS.get(envelope.object_kind) ?? otherHook;
  return [
    handler({
      kind: envelope.object_kind,
      event: headers['x-gitlab-event'],
      project: envelope.project,
      user: envelope.user,
      body,
      receivedAt: receivedAt.toISOString(),
    }),
  ];
};
