import * as z from 'zod/mini';

/**
 * Pieces the response schemas of several groups share, matching what lib/http/pagination.ts and the
 * envelope builders put in an answer.
 */
export const count = z.number().check(z.int(), z.gte(0));
export const nullableText = z.nullable(z.string());

/** `data: {}`: a route that answers only with its message. */
export const emptyData = z.strictObject({});

const nextCursor = z.optional(z.nullable(z.string()));

const pageMetaSchema = z.object({
  total: count,
  page: z.number().check(z.int(), z.gte(1)),
  limit: z.number().check(z.int(), z.gte(1)),
  totalPages: count,
  nextCursor,
});

/** Paging in `meta` beside `data` (most lists). */
export const metaExtra = z.object({ meta: pageMetaSchema });

/** Paging as a `pagination` object beside `data` (pipelines). */
export const paginationExtra = z.object({ pagination: pageMetaSchema });
