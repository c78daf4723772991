import type { PageRequest } from '#lib/store/queries.ts';
import { ok } from './envelope.ts';
import type { JsonResult } from './route.ts';

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

/**
 * Where a list response reports its paging; the spec places it per endpoint: `meta` (most lists),
 * `page` and `total` beside `data` (signals, blast radius, analyses) or a `pagination` object (pipelines).
 */
export type PagePlacement = 'meta' | 'pageAndTotal' | 'pagination';

export const pagingFields = (
  request: PageRequest,
  total: number,
  placement: PagePlacement,
): Record<string, unknown> => {
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
