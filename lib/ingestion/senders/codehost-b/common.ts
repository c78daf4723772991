import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { REPOSITORY_PATH } from '#lib/pipelines/pipeline-run-input.ts';
import type { PipelineJobStatus, PipelineRunStatus } from '#lib/pipelines/pipeline-run-input.ts';
import { lookupTable, optionalText } from '#lib/ingestion/schema-kit.ts';

export const SENDER = 'codehost-b';
export const PROVIDER = 'codehost_b';

export const projectSchema = z.object({
  id: z.nullish(storableNumber),
  path_with_namespace: z.string().check(z.regex(REPOSITORY_PATH, 'Invalid input: expected group/project')),
  web_url: optionalText,
  default_branch: optionalText,
});

const userSchema = z.nullish(z.object({ username: optionalText, email: optionalText, name: optionalText }));

/**
 * What every hook carries. The spec requires `project`, but the Job Hook (`object_kind: "build"`) has none:
 * it names the project by `project_id`, `project_name` and `repository`.
 */
export const envelopeSchema = z.object({
  object_kind: z.string().check(z.minLength(1)),
  project: z.optional(projectSchema),
  user: userSchema,
});

export interface Delivery {
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
export const runStatusOf = (status: string | null | undefined): PipelineRunStatus =>
  RUN_STATUSES.get(status ?? '') ?? 'in_progress';

export const JOB_STATUSES = lookupTable<PipelineJobStatus>({
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
export const jobStatusOf = (
  status: string | null | undefined,
  runStatus: PipelineRunStatus,
): PipelineJobStatus | undefined =>
  JOB_STATUSES.get(status ?? '') ?? (runStatus === 'in_progress' ? undefined : 'skipped');

export const baseMetadata = ({ kind, event, project, user }: Delivery) => ({
  objectKind: kind,
  event,
  repository: project?.path_with_namespace,
  repositoryUrl: project?.web_url,
  user: user?.username,
});
