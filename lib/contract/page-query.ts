import * as z from 'zod/mini';

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;

/** Far above any position a list encodes; a longer value is refused before it is decoded. */
const MAX_CURSOR_LENGTH = 2048;

/**
 * `page` and `limit` query parameters; a limit above the maximum is a 400, not silently clamped. `cursor`
 * is the extension for deep paging: the `nextCursor` of the previous answer, or empty to start.
 */
export const pageQuery = (defaultLimit = DEFAULT_PAGE_SIZE) =>
  z.object({
    page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_PAGE_SIZE)), defaultLimit),
    cursor: z
      .optional(
        z
          .string()
          .check(
            z.maxLength(MAX_CURSOR_LENGTH, `must be at most ${MAX_CURSOR_LENGTH} characters`),
            z.regex(/^[A-Za-z0-9_-]*$/, 'must be a nextCursor of this list'),
          ),
      )
      .check(
        z.describe(
          'Opaque: the `nextCursor` of the previous page of this same list (then `page` is ignored), or empty to start at `page` and get `nextCursor` back',
        ),
      ),
  });
