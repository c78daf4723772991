import { createHash } from 'node:crypto';
import * as z from 'zod';
import { storableNumber } from '#lib/store/stored-json.ts';
import {
  branchFromRef,
  codeHostOutcome,
  deploymentFailureSeverity,
  describeRun,
  failureSeverity,
  REPOSITORY_PATH,
  providerKeyOf,
} from './code-host.ts';
import { fingerprintOf } from './fingerprint.ts';
import type {
  ChangeInput,
  ChangeStatus,
  NormalizedEvent,
  PipelineJobStatus,
  PipelineRunStatus,
} from './normalized-event.ts';
import { PayloadError, parsePayload } from './payload-error.ts';
import { compact, loginSchema, lookupTable, optionalText } from './schema-kit.ts';
import { secondsBetween, toIsoTimestamp } from './timestamps.ts';

const SENDER = 'codehost-a';
const PROVIDER = 'codehost_a';

const repositorySchema = z.object({
  full_name: z.string().regex(REPOSITORY_PATH, 'Invalid input: expected owner/repo'),
  html_url: optionalText,
  default_branch: optionalText,
});

/**
 * What every event may carry. The spec requires `action` and `repository`, but pushes and pings have no
 * `action` and account-level events (installation, organization, ...) no `repository`: the event name comes
 * from `X-GitHub-Event`, and `repository` is required only by the events that are about one.
 */
const envelopeSchema = z.object({
  action: z.string().optional(),
  repository: repositorySchema.nullish(),
  sender: loginSchema,
  organization: loginSchema,
  installation: z.object({ account: loginSchema }).nullish(),
});

interface Delivery {
  event: string;
  envelope: z.output<typeof envelopeSchema>;
  body: unknown;
  receivedAt: string;
}

/** Conclusions that mean the thing is broken; `cancelled`, `skipped`, `stale`, `action_required` are not. */
const FAILURES = new Set(['failure', 'timed_out', 'startup_failure']);

const runStatusOf = (status: string | null | undefined, conclusion: string | null | undefined): PipelineRunStatus => {
  if (status !== 'completed') return 'in_progress';
  if (FAILURES.has(conclusion ?? '')) return 'failure';
  return conclusion === 'success' || conclusion === 'neutral' ? 'success' : 'cancelled';
};

const jobStatusOf = (conclusion: string | null | undefined): PipelineJobStatus => {
  if (FAILURES.has(conclusion ?? '')) return 'failure';
  if (conclusion === 'success' || conclusion === 'neutral') return 'success';
  return conclusion === 'skipped' ? 'skipped' : 'cancelled';
};

const baseMetadata = ({ event, envelope }: Delivery) => ({
  event,
  action: envelope.action,
  repository: envelope.repository?.full_name,
  repositoryUrl: envelope.repository?.html_url,
  sender: envelope.sender?.login,
});

const workflowRunSchema = z.object({
  repository: repositorySchema,
  workflow: z.object({ name: optionalText }).nullish(),
  workflow_run: z.object({
    id: storableNumber,
    name: optionalText,
    run_number: storableNumber.nullish(),
    run_attempt: storableNumber.nullish(),
    status: optionalText,
    conclusion: optionalText,
    event: optionalText,
    head_branch: optionalText,
    head_sha: optionalText,
    head_commit: z.object({ message: optionalText }).nullish(),
    html_url: optionalText,
    actor: loginSchema,
    triggering_actor: loginSchema,
    run_started_at: optionalText,
    created_at: optionalText,
    updated_at: optionalText,
  }),
});

const workflowRun = (delivery: Delivery): NormalizedEvent => {
  const { repository, workflow, workflow_run: run } = parsePayload(SENDER, workflowRunSchema, delivery.body);
  const status = runStatusOf(run.status, run.conclusion);
  const branch = run.head_branch ?? null;
  const updatedAt = toIsoTimestamp(run.updated_at) ?? delivery.receivedAt;
  const startedAt = toIsoTimestamp(run.run_started_at) ?? toIsoTimestamp(run.created_at) ?? updatedAt;
  const finishedAt = status === 'in_progress' ? null : updatedAt;
  const workflowName = run.name || workflow?.name || 'workflow';
  const outcome = codeHostOutcome(
    'pipeline',
    status === 'failure',
    failureSeverity(branch, repository.default_branch),
  );
  return {
    signal: {
      name: describeRun(`Workflow "${workflowName}"`, status, repository.full_name, branch),
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        branch,
        commitSha: run.head_sha,
        workflow: workflowName,
        runNumber: run.run_number,
        runAttempt: run.run_attempt,
        status: run.status,
        conclusion: run.conclusion,
        triggerEvent: run.event,
        url: run.html_url,
      }),
      triggeredAt: updatedAt,
    },
    fingerprint: fingerprintOf(repository.full_name, branch ?? '', run.id),
    action: outcome.action,
    pipelineRun: {
      runKey: providerKeyOf(PROVIDER, String(run.id)),
      provider: PROVIDER,
      providerRunId: String(run.id),
      scope: 'run',
      repository: repository.full_name,
      branch,
      commitSha: run.head_sha ?? null,
      commitMessage: run.head_commit?.message ?? null,
      triggeredBy: run.triggering_actor?.login ?? run.actor?.login ?? delivery.envelope.sender?.login ?? null,
      status,
      startedAt,
      finishedAt,
      durationSeconds: secondsBetween(startedAt, finishedAt),
      jobs: [],
      updatedAt,
      rawPayload: delivery.body,
    },
  };
};

const workflowJobSchema = z.object({
  repository: repositorySchema,
  workflow_job: z.object({
    id: storableNumber,
    run_id: storableNumber,
    run_attempt: storableNumber.nullish(),
    name: z.string(),
    workflow_name: optionalText,
    status: optionalText,
    conclusion: optionalText,
    head_branch: optionalText,
    head_sha: optionalText,
    html_url: optionalText,
    created_at: optionalText,
    started_at: optionalText,
    completed_at: optionalText,
  }),
});

/** A job of a workflow run: it adds the job to the run once it has completed. */
const workflowJob = (delivery: Delivery): NormalizedEvent => {
  const { repository, workflow_job: job } = parsePayload(SENDER, workflowJobSchema, delivery.body);
  const completed = job.status === 'completed';
  const jobStatus = completed ? jobStatusOf(job.conclusion) : 'in_progress';
  const branch = job.head_branch ?? null;
  const startedAt = toIsoTimestamp(job.started_at) ?? toIsoTimestamp(job.created_at) ?? delivery.receivedAt;
  const finishedAt = completed ? (toIsoTimestamp(job.completed_at) ?? null) : null;
  const updatedAt = finishedAt ?? startedAt;
  const workflowName = job.workflow_name || 'workflow';
  const outcome = codeHostOutcome('job', jobStatus === 'failure', failureSeverity(branch, repository.default_branch));
  return {
    signal: {
      name: describeRun(`Job "${job.name}" of workflow "${workflowName}"`, jobStatus, repository.full_name, branch),
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        branch,
        commitSha: job.head_sha,
        workflow: workflowName,
        job: job.name,
        runId: job.run_id,
        runAttempt: job.run_attempt,
        status: job.status,
        conclusion: job.conclusion,
        url: job.html_url,
      }),
      triggeredAt: updatedAt,
    },
    fingerprint: fingerprintOf(repository.full_name, branch ?? '', job.run_id, job.name),
    action: outcome.action,
    pipelineRun: {
      runKey: providerKeyOf(PROVIDER, String(job.run_id)),
      provider: PROVIDER,
      providerRunId: String(job.run_id),
      scope: 'job',
      repository: repository.full_name,
      branch,
      commitSha: job.head_sha ?? null,
      commitMessage: null,
      triggeredBy: delivery.envelope.sender?.login ?? null,
      status: 'in_progress',
      startedAt,
      finishedAt: null,
      durationSeconds: null,
      jobs:
        jobStatus === 'in_progress'
          ? []
          : [{ name: job.name, status: jobStatus, durationSeconds: secondsBetween(startedAt, finishedAt) }],
      updatedAt,
      rawPayload: delivery.body,
    },
  };
};

const checkRunSchema = z.object({
  repository: repositorySchema,
  check_run: z.object({
    id: storableNumber,
    name: z.string(),
    status: optionalText,
    conclusion: optionalText,
    head_sha: z.string(),
    html_url: optionalText,
    details_url: optionalText,
    started_at: optionalText,
    completed_at: optionalText,
    app: z.object({ slug: optionalText }).nullish(),
    check_suite: z.object({ head_branch: optionalText }).nullish(),
    output: z.object({ title: optionalText, summary: optionalText }).nullish(),
  }),
});

const checkRun = (delivery: Delivery): NormalizedEvent => {
  const { repository, check_run: check } = parsePayload(SENDER, checkRunSchema, delivery.body);
  const status = runStatusOf(check.status, check.conclusion);
  const branch = check.check_suite?.head_branch ?? null;
  const outcome = codeHostOutcome(
    'check_run',
    status === 'failure',
    failureSeverity(branch, repository.default_branch),
  );
  return {
    signal: {
      name: describeRun(`Check "${check.name}"`, status, repository.full_name, branch),
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        branch,
        commitSha: check.head_sha,
        check: check.name,
        app: check.app?.slug,
        status: check.status,
        conclusion: check.conclusion,
        outputTitle: check.output?.title,
        outputSummary: check.output?.summary,
        url: check.html_url,
        detailsUrl: check.details_url,
      }),
      triggeredAt: toIsoTimestamp(check.completed_at) ?? toIsoTimestamp(check.started_at) ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository.full_name, 'check_run', check.name, check.head_sha),
    action: outcome.action,
  };
};

const commitStatusSchema = z.object({
  repository: repositorySchema,
  sha: z.string(),
  state: z.string(),
  context: z.string(),
  description: optionalText,
  target_url: optionalText,
  branches: z.array(z.object({ name: z.string() })).nullish(),
  updated_at: optionalText,
});

/** A commit status (CI systems that report through the statuses API): `failure` and `error` are problems. */
const commitStatus = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, commitStatusSchema, delivery.body);
  const repository = payload.repository.full_name;
  const branches = payload.branches?.map((branch) => branch.name) ?? [];
  const onDefaultBranch = branches.includes(payload.repository.default_branch ?? '');
  const outcome = codeHostOutcome(
    'commit_status',
    payload.state === 'failure' || payload.state === 'error',
    onDefaultBranch ? 'HIGH' : 'MEDIUM',
  );
  return {
    signal: {
      name: `Status "${payload.context}" is ${payload.state} for ${repository}@${payload.sha.slice(0, 7)}`,
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        commitSha: payload.sha,
        context: payload.context,
        state: payload.state,
        description: payload.description,
        branches,
        url: payload.target_url,
      }),
      triggeredAt: toIsoTimestamp(payload.updated_at) ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, 'status', payload.context, payload.sha),
    action: outcome.action,
  };
};

const deploymentSchema = z.object({
  id: storableNumber,
  sha: optionalText,
  ref: optionalText,
  environment: z.string(),
  description: optionalText,
  creator: loginSchema,
  created_at: optionalText,
  updated_at: optionalText,
});

const deploymentEventSchema = z.object({ repository: repositorySchema, deployment: deploymentSchema });

const deploymentStatusEventSchema = deploymentEventSchema.extend({
  deployment_status: z.object({
    state: z.string(),
    environment: optionalText,
    description: optionalText,
    target_url: optionalText,
    environment_url: optionalText,
    log_url: optionalText,
    created_at: optionalText,
    updated_at: optionalText,
  }),
});

const CHANGE_STATUSES = lookupTable<ChangeStatus>({
  pending: 'PENDING',
  queued: 'PENDING',
  waiting: 'PENDING',
  in_progress: 'IN_PROGRESS',
  success: 'SUCCEEDED',
  failure: 'FAILED',
  error: 'FAILED',
  inactive: 'INACTIVE',
});

/** `deployment` (created: PENDING) and `deployment_status`: a change; a failed or errored deployment is a problem. */
const deployment = (delivery: Delivery): NormalizedEvent => {
  const isStatus = delivery.event === 'deployment_status';
  const payload = isStatus
    ? parsePayload(SENDER, deploymentStatusEventSchema, delivery.body)
    : { ...parsePayload(SENDER, deploymentEventSchema, delivery.body), deployment_status: undefined };
  const { repository, deployment: deployed, deployment_status: state } = payload;
  const environment = state?.environment || deployed.environment;
  const stateName = state?.state ?? 'pending';
  const status = CHANGE_STATUSES.get(stateName) ?? 'PENDING';
  const updatedAt = isStatus
    ? (toIsoTimestamp(state?.updated_at) ?? toIsoTimestamp(state?.created_at) ?? delivery.receivedAt)
    : (toIsoTimestamp(deployed.created_at) ?? toIsoTimestamp(deployed.updated_at) ?? delivery.receivedAt);
  const target = `${repository.full_name}${deployed.ref ? `@${deployed.ref}` : ''} to ${environment}`;
  const change: ChangeInput = {
    changeKey: providerKeyOf(PROVIDER, String(deployed.id)),
    provider: PROVIDER,
    providerDeploymentId: String(deployed.id),
    summary: `Deploy ${target}${deployed.description ? `: ${deployed.description}` : ''}`,
    status,
    environment,
    repository: repository.full_name,
    commitSha: deployed.sha ?? null,
    deployer: deployed.creator?.email ?? deployed.creator?.login ?? null,
    updatedAt,
  };
  const outcome = codeHostOutcome('deployment', status === 'FAILED', deploymentFailureSeverity(environment));
  return {
    signal: {
      name: `Deployment of ${target}: ${stateName}`,
      source: SENDER,
      type: outcome.type,
      severity: outcome.severity,
      metadata: compact({
        ...baseMetadata(delivery),
        deploymentId: deployed.id,
        environment,
        ref: deployed.ref,
        commitSha: deployed.sha,
        state: stateName,
        description: state?.description || deployed.description,
        url: state?.target_url || state?.log_url,
        environmentUrl: state?.environment_url,
      }),
      triggeredAt: updatedAt,
    },
    fingerprint: fingerprintOf(repository.full_name, 'deployment', deployed.id),
    action: outcome.action,
    change,
  };
};

const pushSchema = z.object({
  repository: repositorySchema,
  ref: z.string(),
  before: optionalText,
  after: z.string(),
  created: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  forced: z.boolean().nullish(),
  compare: optionalText,
  commits: z.array(z.unknown()).nullish(),
  head_commit: z.object({ message: optionalText, timestamp: optionalText, url: optionalText }).nullish(),
  pusher: z.object({ name: optionalText, email: optionalText }).nullish(),
});

const push = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pushSchema, delivery.body);
  const repository = payload.repository.full_name;
  const commitCount = payload.commits?.length ?? 0;
  const commits = `${commitCount} commit${commitCount === 1 ? '' : 's'}`;
  return {
    signal: {
      name: `Push to ${repository}@${branchFromRef(payload.ref)} (${commits})`,
      source: SENDER,
      type: 'push',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        ref: payload.ref,
        before: payload.before,
        after: payload.after,
        created: payload.created,
        deleted: payload.deleted,
        forced: payload.forced,
        commitCount,
        headCommitMessage: payload.head_commit?.message,
        pusher: payload.pusher?.email ?? payload.pusher?.name,
        url: payload.compare,
      }),
      triggeredAt: toIsoTimestamp(payload.head_commit?.timestamp) ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository, 'push', payload.ref, payload.after),
    action: 'record',
  };
};

const pullRequestSchema = z.object({
  repository: repositorySchema,
  number: storableNumber,
  pull_request: z.object({
    title: z.string(),
    html_url: optionalText,
    state: optionalText,
    merged: z.boolean().nullish(),
    user: loginSchema,
    head: z.object({ ref: optionalText }).nullish(),
    base: z.object({ ref: optionalText }).nullish(),
    updated_at: optionalText,
  }),
});

const pullRequest = (delivery: Delivery): NormalizedEvent => {
  const { repository, number, pull_request: pr } = parsePayload(SENDER, pullRequestSchema, delivery.body);
  return {
    signal: {
      name: `Pull request #${number} ${delivery.envelope.action ?? 'updated'} in ${repository.full_name}: ${pr.title}`,
      source: SENDER,
      type: 'pull_request',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        number,
        title: pr.title,
        state: pr.state,
        merged: pr.merged,
        author: pr.user?.login,
        headBranch: pr.head?.ref,
        baseBranch: pr.base?.ref,
        url: pr.html_url,
      }),
      triggeredAt: toIsoTimestamp(pr.updated_at) ?? delivery.receivedAt,
    },
    fingerprint: fingerprintOf(repository.full_name, 'pull_request', number),
    action: 'record',
  };
};

/** Where an event without its own handler happened: the repository, else the account it is about. */
const scopeOf = ({ envelope }: Delivery): string =>
  envelope.repository?.full_name ??
  envelope.organization?.login ??
  envelope.installation?.account?.login ??
  envelope.sender?.login ??
  'unknown';

const pingSchema = z.object({
  zen: optionalText,
  hook_id: storableNumber.nullish(),
  hook: z.object({ type: optionalText, events: z.array(z.string()).nullish() }).nullish(),
});

const ping = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pingSchema, delivery.body);
  const scope = scopeOf(delivery);
  return {
    signal: {
      name: `Webhook ping from ${scope}`,
      source: SENDER,
      type: 'ping',
      severity: 'LOW',
      metadata: compact({
        ...baseMetadata(delivery),
        scope,
        hookId: payload.hook_id,
        hookType: payload.hook?.type,
        hookEvents: payload.hook?.events,
        zen: payload.zen,
      }),
      triggeredAt: delivery.receivedAt,
    },
    fingerprint: fingerprintOf(scope, 'ping', payload.hook_id ?? ''),
    action: 'record',
  };
};

/**
 * Every other event (issues, releases, stars, installations...) is kept as a record. Its fingerprint ends with
 * a digest of the body, which a re-send repeats.
 */
const otherEvent = (delivery: Delivery): NormalizedEvent => {
  const scope = scopeOf(delivery);
  const { action } = delivery.envelope;
  const digest = createHash('sha256').update(JSON.stringify(delivery.body)).digest('hex').slice(0, 16);
  return {
    signal: {
      name: `${delivery.event}${action ? ` ${action}` : ''} in ${scope}`,
      source: SENDER,
      type: delivery.event,
      severity: 'LOW',
      metadata: compact({ ...baseMetadata(delivery), scope }),
      triggeredAt: delivery.receivedAt,
    },
    fingerprint: fingerprintOf(scope, delivery.event, action ?? '', digest),
    action: 'record',
  };
};

const HANDLERS = lookupTable<(delivery: Delivery) => NormalizedEvent>({
  workflow_run: workflowRun,
  workflow_job: workflowJob,
  check_run: checkRun,
  status: commitStatus,
  deployment,
  deployment_status: deployment,
  push,
  pull_request: pullRequest,
  ping,
});

/**
 * Without `X-GitHub-Event`, the event a payload with an `action` is about, from the object it carries; in this
 * order because a deployment status also carries its deployment and sometimes its workflow run and check run.
 */
const INFERABLE_EVENTS = [
  'deployment_status',
  'deployment',
  'workflow_job',
  'workflow_run',
  'check_run',
  'pull_request',
];

const eventNameOf = (body: unknown, headers: Record<string, string>): string | undefined => {
  const header = headers['x-github-event']?.trim();
  if (header) return header;
  const object = body as Record<string, unknown>;
  return INFERABLE_EVENTS.find((name) => typeof object[name] === 'object' && object[name] !== null);
};

/**
 * Code host A webhooks. Failing workflow runs, workflow jobs, check runs and commit statuses and failed
 * deployments are problems; everything else (pings, pushes, pull requests, successful runs...) is a record.
 */
export const normalizeCodehostA = (
  body: unknown,
  headers: Record<string, string>,
  receivedAt: Date,
): NormalizedEvent[] => {
  const envelope = parsePayload(SENDER, envelopeSchema, body);
  const event = eventNameOf(body, headers) ?? (envelope.action === undefined ? undefined : 'unknown');
  if (event === undefined) {
    throw new PayloadError(SENDER, [
      'action: Invalid input: expected string, received undefined (or an X-GitHub-Event header)',
    ]);
  }
  const handler = HANDLERS.get(event) ?? otherEvent;
  return [handler({ event, envelope, body, receivedAt: receivedAt.toISOString() })];
};
