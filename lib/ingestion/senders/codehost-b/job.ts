import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { buildEvent, pipelineRunOf, repositoryFromUrl } from '#lib/ingestion/code-host.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { PayloadError, parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { latestTimestamp, secondsBetween } from '#lib/ingestion/timestamps.ts';
import { JOB_STATUSES, PROVIDER, SENDER, baseMetadata, runStatusOf, type Delivery } from './common.ts';

const jobHookSchema = z.object({
  ref: optionalText,
  tag: z.nullish(z.boolean()),
  sha: optionalText,
  build_id: storableNumber,
  build_name: z.string(),
  build_stage: optionalText,
  build_status: z.string(),
  build_created_at: optionalDateTime,
  build_started_at: optionalDateTime,
  build_finished_at: optionalDateTime,
  build_duration: z.nullish(storableNumber),
  build_allow_failure: z.nullish(z.boolean()),
  build_failure_reason: optionalText,
  pipeline_id: storableNumber,
  project_id: storableNumber,
  project_name: optionalText,
  commit: z.nullish(
    z.object({
      message: optionalText,
      status: optionalText,
      duration: z.nullish(storableNumber),
      started_at: optionalDateTime,
      finished_at: optionalDateTime,
    }),
  ),
  repository: z.nullish(z.object({ homepage: optionalText, git_http_url: optionalText })),
  environment: z.nullish(z.object({ name: optionalText })),
});

/** The Job Hook: one job of a pipeline, added to its run once finished; a failure not allowed to fail is a problem. */
export const job = (delivery: Delivery): NormalizedEvent => {
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
    payload.commit?.started_at ?? payload.build_created_at ?? payload.build_started_at ?? delivery.receivedAt;
  const updatedAt =
    latestTimestamp(payload.build_created_at, payload.build_started_at, payload.build_finished_at) ??
    delivery.receivedAt;
  // `commit` describes the pipeline as of this job's event.
  const runFinishedAt = runStatus === 'in_progress' ? null : (payload.commit?.finished_at ?? updatedAt);
  return buildEvent({
    sender: SENDER,
    run: pipelineRunOf(PROVIDER, payload.pipeline_id, delivery.body, {
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
              durationSeconds:
                payload.build_duration ?? secondsBetween(payload.build_started_at, payload.build_finished_at),
            },
          ]
        : [],
      updatedAt,
    }),
    what: `Job "${payload.build_name}" of pipeline #${payload.pipeline_id}`,
    status: jobStatus,
    job: payload.build_name,
    defaultBranch: delivery.project?.default_branch,
    allowedToFail: payload.build_allow_failure === true,
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
  });
};
