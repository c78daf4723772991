import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { buildEvent, pipelineRunOf } from '#lib/ingestion/code-host.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { secondsBetween } from '#lib/ingestion/timestamps.ts';
import { PROVIDER, SENDER, baseMetadata, jobStatusOf, repositorySchema, type Delivery } from './common.ts';

const workflowJobSchema = z.object({
  repository: repositorySchema,
  workflow_job: z.object({
    id: storableNumber,
    run_id: storableNumber,
    run_attempt: z.nullish(storableNumber),
    name: z.string(),
    workflow_name: optionalText,
    status: optionalText,
    conclusion: optionalText,
    head_branch: optionalText,
    head_sha: optionalText,
    html_url: optionalText,
    created_at: optionalDateTime,
    started_at: optionalDateTime,
    completed_at: optionalDateTime,
  }),
});

/** A job of a workflow run: it adds the job to the run once it has completed. */
export const workflowJob = (delivery: Delivery): NormalizedEvent => {
  const { repository, workflow_job: job } = parsePayload(SENDER, workflowJobSchema, delivery.body);
  const completed = job.status === 'completed';
  const jobStatus = completed ? jobStatusOf(job.conclusion) : 'in_progress';
  const branch = job.head_branch ?? null;
  const startedAt = job.started_at ?? job.created_at ?? delivery.receivedAt;
  const finishedAt = completed ? (job.completed_at ?? null) : null;
  const updatedAt = finishedAt ?? startedAt;
  const workflowName = job.workflow_name || 'workflow';
  return buildEvent({
    sender: SENDER,
    run: pipelineRunOf(PROVIDER, job.run_id, delivery.body, {
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
    }),
    what: `Job "${job.name}" of workflow "${workflowName}"`,
    status: jobStatus,
    job: job.name,
    defaultBranch: repository.default_branch,
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
  });
};
