import * as z from 'zod';
import { ok } from './envelope.ts';
import type { JsonResult } from './route.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** `page` and `limit` query parameters; a limit above the maximum is a 400, not silently clamped. */
export const pageQuery = (defaultLimit = DEFAULT_PAGE_SIZE) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultLimit),
  });

export interface PageRequest {
  page: number;
  limit: number;
}

export interface PageMeta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export const pageMeta = ({ page, limit }: PageRequest, total: number): PageMeta => ({
  total,
  page,
  limit,
  totalPages: Math.ceil(total / limit),
});

/** How many items precede the requested page. */
export const pageOffset = ({ page, limit }: PageRequest): number => (page - 1) * limit;

/**
 * Where a list response reports its paging; the spec places it per endpoint: `meta` (most lists),
 * `page` and `total` beside `data` (signals, blast radius, analyses) or a `pagination` object (pipelines).
 */
export type PagePlacement = 'meta' | 'pageAndTotal' | 'pagination';

export const pagingFields = (request: PageRequest, total: number, placement: PagePlacement): Record<string, unknown> => {
  const meta = pageMeta(request, total);
  switch (placement) {
    case 'meta':
      return { meta };
    case 'pageAndTotal':
      return { page: meta.page, total: meta.total };
    case 'pagination':
      return { pagination: meta };
  }
};

export const paged = (
  data: unknown,
  request: PageRequest,
  total: number,
  placement: PagePlacement = 'meta',
  message?: string,
): JsonResult => ok(data, { extra: pagingFields(request, total, placement), ...(message && { message }) });
