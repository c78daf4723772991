import * as z from 'zod';
import { REPOSITORY_PATH } from '#lib/pipelines/pipeline-run-input.ts';
import { pageQuery } from '#lib/contract/page-query.ts';
import { PIPELINE_PROVIDERS, PIPELINE_RUN_STATUSES } from './pipeline-run.ts';

/** The spec's default page size for pipelines. */
export const PIPELINE_PAGE_SIZE = 25;

export const listRunsQuery = pageQuery(PIPELINE_PAGE_SIZE).extend({
  status: z.enum(PIPELINE_RUN_STATUSES).optional(),
  provider: z.enum(PIPELINE_PROVIDERS).optional(),
  repository: z
    .string()
    .trim()
    .max(512)
    .regex(REPOSITORY_PATH, 'must be owner/repo (code host B: group/project, subgroups allowed)')
    .describe('owner/repo, case-insensitive')
    .optional(),
  branch: z.string().trim().min(1, 'must not be empty').max(512).describe('exact branch or tag name').optional(),
});
export type ListRunsInput = z.output<typeof listRunsQuery>;

export const runIdParams = z.object({
  id: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(256)
    .describe('`<provider>-<provider run id>`, e.g. codehost_a-30433642'),
});
