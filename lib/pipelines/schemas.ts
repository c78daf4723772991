import * as z from 'zod/mini';
import { REPOSITORY_PATH } from '#lib/pipelines/pipeline-run-input.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { PIPELINE_PROVIDERS, PIPELINE_RUN_STATUSES } from './pipeline-run.ts';

/** The spec's default page size for pipelines. */
export const PIPELINE_PAGE_SIZE = 25;

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
export type ListRunsInput = z.output<typeof listRunsQuery>;

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
