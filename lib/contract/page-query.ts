import * as z from 'zod';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** `page` and `limit` query parameters; a limit above the maximum is a 400, not silently clamped. */
export const pageQuery = (defaultLimit = DEFAULT_PAGE_SIZE) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultLimit),
  });
