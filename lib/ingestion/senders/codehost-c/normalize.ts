import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { buildEvent, pipelineRunOf, repositoryFromUrl } from '#lib/ingestion/code-host.ts';
import { fingerprintOf } from '#lib/signals/fingerprint.ts';
import type { NormalizedEvent, Normalizer } from '#lib/ingestion/normalized-event.ts';
import type { PipelineJobStatus, PipelineRunInput, PipelineRunStatus } from '#lib/pipelines/pipeline-run-input.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, dateTime, lookupTable, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { secondsBetween } from '#lib/ingestion/timestamps.ts';

const SENDER = 'codehost-c';
const PROVIDER = 'codehost_c';

const envelopeSchema = z.object({
  id: z.string().check(z.minLength(1)),
  type: z.string().check(z.minLength(1)),
  happened_at: dateTime,
  project: z.object({
    id: optionalText,
    name: optionalText,
    slug: z.string().check(z.regex(/^[^/\s]+\/[^/\s]+\/[^/\s]+$/, 'Invalid input: expected <vcs>/<owner>/<repo>')),
  }),
  organization: z.nullish(z.object({ name: optionalText })),
});

const workflowSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  status: optionalText,
  created_at: optionalDateTime,
  stopped_at: optionalDateTime,
  url: optionalText,
});

const pipelineSchema = z.object({
  id: z.string(),
  number: z.nullish(storableNumber),
  trigger: z.nullish(z.object({ type: optionalText })),
  vcs: z.nullish(
    z.object({
      provider_name: optionalText,
      origin_repository_url: optionalText,
      target_repository_url: optionalText,
      revision: optionalText,
      branch: optionalText,
      tag: optionalText,
      commit: z.nullish(
        z.object({
          subject: optionalText,
          body: optionalText,
          author: z.nullish(z.object({ name: optionalText, email: optionalText })),
        }),
      ),
    }),
  ),
});

const workflowCompletedSchema = z.object({
  workflow: z.extend(workflowSchema, { status: z.string() }),
  pipeline: pipelineSchema,
});

const jobCompletedSchema = z.object({
  workflow: workflowSchema,
  pipeline: pipelineSchema,
  job: z.object({
    id: z.string().check(z.minLength(1)),
    name: z.string(),
    number: z.nullish(storableNumber),
    status: z.string(),
    started_at: optionalDateTime,
    stopped_at: optionalDateTime,
  }),
});

type Envelope = z.output<typeof envelopeSchema>;
type Pipeline = z.output<typeof pipelineSchema>;
type Workflow = z.output<typeof workflowSchema>;

const RUN_STATUSES = lookupTable<PipelineRunStatus>({
  success: 'success',
  failed: 'failure',
  error: 'failure',
  failing: 'failure',
  unauthorized: 'failure',
  canceled: 'cancelled',
  not_run: 'cancelled',
});

const JOB_STATUSES = lookupTable<PipelineJobStatus>({
  success: 'success',
  failed: 'failure',
  infrastructure_fail: 'failure',
  timedout: 'failure',
  'terminated-unknown': 'failure',
  unauthorized: 'failure',
  canceled: 'cancelled',
  not_run: 'skipped',
});

/** `owner/repo` from the repository address, else from the project slug `<vcs>/<owner>/<repo>`. */
const repositoryOf = (envelope: Envelope, pipeline: Pipeline): string =>
  repositoryFromUrl(pipeline.vcs?.target_repository_url) ??
  repositoryFromUrl(pipeline.vcs?.origin_repository_url) ??
  envelope.project.slug.split('/').slice(1).join('/');

const commitMessageOf = (pipeline: Pipeline): string | null => {
  const commit = pipeline.vcs?.commit;
  if (!commit?.subject) return null;
  return commit.body ? `${commit.subject}\n\n${commit.body}` : commit.subject;
};

interface RunFacts {
  envelope: Envelope;
  pipeline: Pipeline;
  workflow: Workflow;
  body: unknown;
  updatedAt: string;
}

/** The run (one per workflow) as any event about it describes it. */
const runOf = (
  { envelope, pipeline, workflow, body, updatedAt }: RunFacts,
  fields: Pick<PipelineRunInput, 'scope' | 'status' | 'jobs'>,
): PipelineRunInput => {
  const startedAt = workflow.created_at ?? envelope.happened_at ?? updatedAt;
  const finishedAt = fields.status === 'in_progress' ? null : (workflow.stopped_at ?? updatedAt);
  return pipelineRunOf(PROVIDER, workflow.id, body, {
    repository: repositoryOf(envelope, pipeline),
    branch: pipeline.vcs?.branch ?? pipeline.vcs?.tag ?? null,
    commitSha: pipeline.vcs?.revision ?? null,
    commitMessage: commitMessageOf(pipeline),
    triggeredBy: pipeline.vcs?.commit?.author?.email ?? pipeline.vcs?.commit?.author?.name ?? null,
    startedAt,
    finishedAt,
    durationSeconds: secondsBetween(startedAt, finishedAt),
    updatedAt,
    ...fields,
  });
};

const baseMetadata = (envelope: Envelope, pipeline: Pipeline, workflow: Workflow, run: PipelineRunInput) => ({
  eventType: envelope.type,
  eventId: envelope.id,
  project: envelope.project.slug,
  organization: envelope.organization?.name,
  repository: run.repository,
  branch: run.branch,
  commitSha: run.commitSha,
  pipelineNumber: pipeline.number,
  workflow: workflow.name,
  workflowId: workflow.id,
  url: workflow.url,
});

const workflowCompleted = (envelope: Envelope, body: unknown, receivedAt: string): NormalizedEvent => {
  const { workflow, pipeline } = parsePayload(SENDER, workflowCompletedSchema, body);
  const updatedAt = envelope.happened_at ?? receivedAt;
  const status = RUN_STATUSES.get(workflow.status) ?? 'in_progress';
  const run = runOf({ envelope, pipeline, workflow, body, updatedAt }, { scope: 'run', status, jobs: [] });
  return buildEvent({
    sender: SENDER,
    run,
    what: `Workflow "${workflow.name}"`,
    status,
    defaultBranch: undefined,
    metadata: compact({ ...baseMetadata(envelope, pipeline, workflow, run), status: workflow.status }),
  });
};

/** A job's event: the job joins its workflow's run; the run's own status comes from workflow-completed. */
const jobCompleted = (envelope: Envelope, body: unknown, receivedAt: string): NormalizedEvent => {
  const { workflow, pipeline, job } = parsePayload(SENDER, jobCompletedSchema, body);
  const updatedAt = envelope.happened_at ?? receivedAt;
  const jobStatus = JOB_STATUSES.get(job.status);
  const durationSeconds = secondsBetween(job.started_at, job.stopped_at);
  const run = runOf(
    { envelope, pipeline, workflow, body, updatedAt },
    {
      scope: 'job',
      status: 'in_progress',
      jobs: jobStatus ? [{ name: job.name, status: jobStatus, durationSeconds }] : [],
    },
  );
  return buildEvent({
    sender: SENDER,
    run,
    what: `Job "${job.name}" of workflow "${workflow.name}"`,
    status: jobStatus,
    job: job.name,
    defaultBranch: undefined,
    metadata: compact({
      ...baseMetadata(envelope, pipeline, workflow, run),
      job: job.name,
      jobNumber: job.number,
      status: job.status,
    }),
  });
};

/** Any other event type CircleCI may add: a record of the project. */
const otherEvent = (envelope: Envelope, receivedAt: string): NormalizedEvent => ({
  signal: {
    name: `${envelope.type} in ${envelope.project.slug}`,
    source: SENDER,
    type: envelope.type,
    severity: 'LOW',
    metadata: compact({ eventType: envelope.type, eventId: envelope.id, project: envelope.project.slug }),
    triggeredAt: envelope.happened_at ?? receivedAt,
  },
  fingerprint: fingerprintOf(envelope.project.slug, envelope.type, envelope.id),
  action: 'record',
});

/**
 * Code host C outbound webhooks (`workflow-completed`, `job-completed`). A failed workflow or job is a problem;
 * a successful or cancelled one is a record. Runs are workflows: `codehost_c-<workflow id>`.
 */
export const normalizeCodehostC: Normalizer = (body, _headers, receivedAt) => {
  const envelope = parsePayload(SENDER, envelopeSchema, body);
  const received = receivedAt.toISOString();
  if (envelope.type === 'workflow-completed') return [workflowCompleted(envelope, body, received)];
  if (envelope.type === 'job-completed') return [jobCompleted(envelope, body, received)];
  return [otherEvent(envelope, received)];
};
