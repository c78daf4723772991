import * as z from 'zod/mini';
import { REPOSITORY_PATH } from '#lib/pipelines/pipeline-run-input.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { PIPELINE_JOB_STATUSES, PIPELINE_PROVIDERS, PIPELINE_RUN_STATUSES } from './pipeline-run.ts';
import { nullableText } from '#lib/contract/response-fields.ts';

/** The spec's default page size for pipelines. */
const PIPELINE_PAGE_SIZE = 25;

export const listRunsQuery = z.extend(pageQuery(PIPELINE_PAGE_SIZE), {
  status: z.optional(z.enum(PIPELINE_RUN_STATUSES)),
  provider: z.optional(z.enum(PIPELINE_PROVIDERS)),
  repository: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(512),
        z.regex(REPOSITORY_PATH, 'must be owner/repo (code host B: group/project, subgroups allowed)'),
        z.describe('owner/repo, case-insensitive'),
      ),
  ),
  branch: z.optional(
    z
      .string()
      .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(512), z.describe('exact branch or tag name')),
  ),
});

export const runIdParams = z.object({
  id: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(256),
      z.describe('`<provider>-<provider run id>`, e.g. codehost_a-30433642'),
    ),
});

const runSummaryFields = {
  id: z.string(),
  provider: z.enum(PIPELINE_PROVIDERS),
  repository: z.string(),
  branch: nullableText,
  commitSha: nullableText,
  status: z.enum(PIPELINE_RUN_STATUSES),
  startedAt: z.string(),
  finishedAt: nullableText,
  durationSeconds: z.nullable(z.number()),
};

/** `data.runs`, the spec's name for the list; paging is in `pagination` beside `data`. */
export const runsData = z.object({ runs: z.array(z.object(runSummaryFields)) });

/** A run with its jobs and the latest webhook body, a string when cut to fit (`rawPayloadTruncated`). */
export const runData = z.object({
  ...runSummaryFields,
  commitMessage: nullableText,
  triggeredBy: nullableText,
  jobs: z.array(
    z.object({
      name: z.string(),
      status: z.enum(PIPELINE_JOB_STATUSES),
      durationSeconds: z.nullable(z.number()),
    }),
  ),
  rawPayload: z.unknown(),
  rawPayloadTruncated: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
