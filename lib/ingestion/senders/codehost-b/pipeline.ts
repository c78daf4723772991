import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { buildEvent, pipelineRunOf } from '#lib/ingestion/code-host.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import type { PipelineJob, PipelineRunStatus } from '#lib/pipelines/pipeline-run-input.ts';
import { parsePayload } from '#lib/ingestion/payload-error.ts';
import { compact, optionalDateTime, optionalText } from '#lib/ingestion/schema-kit.ts';
import { latestTimestamp, secondsBetween } from '#lib/ingestion/timestamps.ts';
import { PROVIDER, SENDER, baseMetadata, jobStatusOf, projectSchema, runStatusOf, type Delivery } from './common.ts';

const buildSchema = z.object({
  id: storableNumber,
  name: z.string(),
  stage: optionalText,
  status: optionalText,
  started_at: optionalDateTime,
  finished_at: optionalDateTime,
  duration: z.nullish(storableNumber),
  allow_failure: z.nullish(z.boolean()),
});

const pipelineSchema = z.object({
  project: projectSchema,
  object_attributes: z.object({
    id: storableNumber,
    iid: z.nullish(storableNumber),
    ref: optionalText,
    tag: z.nullish(z.boolean()),
    sha: optionalText,
    source: optionalText,
    status: z.string(),
    detailed_status: optionalText,
    url: optionalText,
    created_at: optionalDateTime,
    finished_at: optionalDateTime,
    duration: z.nullish(storableNumber),
  }),
  commit: z.nullish(z.object({ message: optionalText, url: optionalText })),
  merge_request: z.nullish(z.object({ iid: z.nullish(storableNumber), url: optionalText })),
  builds: z.nullish(z.array(buildSchema)),
});

const jobOf = (build: z.output<typeof buildSchema>, runStatus: PipelineRunStatus): PipelineJob | undefined => {
  const status = jobStatusOf(build.status, runStatus);
  if (!status) return undefined;
  // The documented example gives never-started jobs a duration; a job that never ran took no time.
  const durationSeconds = build.started_at
    ? (build.duration ?? secondsBetween(build.started_at, build.finished_at))
    : null;
  return { name: build.name, status, durationSeconds };
};

export const pipeline = (delivery: Delivery): NormalizedEvent => {
  const payload = parsePayload(SENDER, pipelineSchema, delivery.body);
  const { project, object_attributes: run } = payload;
  const status = runStatusOf(run.status);
  const branch = run.ref ?? null;
  const builds = payload.builds ?? [];
  const startedAt = run.created_at ?? delivery.receivedAt;
  // The hook has no update time: the latest time it mentions orders its states.
  const updatedAt =
    latestTimestamp(startedAt, run.finished_at, ...builds.flatMap((build) => [build.started_at, build.finished_at])) ??
    startedAt;
  const finishedAt = status === 'in_progress' ? null : (run.finished_at ?? updatedAt);
  return buildEvent({
    sender: SENDER,
    run: pipelineRunOf(PROVIDER, run.id, delivery.body, {
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
    }),
    what: `Pipeline #${run.id}`,
    status,
    defaultBranch: project.default_branch,
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
  });
};
