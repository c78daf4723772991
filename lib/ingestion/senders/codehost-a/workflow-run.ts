import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { buildEvent, pipelineRunOf } from '#lib/ingestion/code-host.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, loginSchema, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { secondsBetween } from '#lib/ingestion/timestamps.ts';
import { PROVIDER, SENDER, baseMetadata, repositorySchema, runStatusOf, type Delivery } from './common.ts';

const workflowRunSchema = z.object({
  repository: repositorySchema,
  workflow: z.nullish(z.object({ name: optionalText })),
  workflow_run: z.object({
    id: storableNumber,
    name: optionalText,
    run_number: z.nullish(storableNumber),
    run_attempt: z.nullish(storableNumber),
    status: optionalText,
    conclusion: optionalText,
    event: optionalText,
    head_branch: optionalText,
    head_sha: optionalText,
    head_commit: z.nullish(z.object({ message: optionalText })),
    html_url: optionalText,
    actor: loginSchema,
    triggering_actor: loginSchema,
    run_started_at: optionalDateTime,
    created_at: optionalDateTime,
    updated_at: optionalDateTime,
  }),
});

export const workflowRun = (delivery: Delivery): NormalizedEvent => {
  const { repository, workflow, workflow_run: run } = parsePayload(SENDER, workflowRunSchema, delivery.body);
  const status = runStatusOf(run.status, run.conclusion);
  const branch = run.head_branch ?? null;
  const updatedAt = run.updated_at ?? delivery.receivedAt;
  const startedAt = run.run_started_at ?? run.created_at ?? updatedAt;
  const finishedAt = status === 'in_progress' ? null : updatedAt;
  const workflowName = run.name || workflow?.name || 'workflow';
  return buildEvent({
    sender: SENDER,
    run: pipelineRunOf(PROVIDER, run.id, delivery.body, {
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
    }),
    what: `Workflow "${workflowName}"`,
    status,
    defaultBranch: repository.default_branch,
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
  });
};
