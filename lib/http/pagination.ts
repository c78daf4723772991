import type { PageInfo, PageRequest } from '#lib/store/pages.ts';
import { ok } from './envelope.ts';
import type { JsonResult } from './route.ts';

interface PageMeta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  nextCursor?: string | null;
}

const pageMeta = ({ page, limit }: PageRequest, { total, ...info }: PageInfo): PageMeta => ({
  total,
  page: info.page ?? page,
  limit,
  totalPages: Math.ceil(total / limit),
  ...(info.nextCursor !== undefined && { nextCursor: info.nextCursor }),
});

/**
 * Where a list response reports its paging; the spec places it per endpoint: `meta` (most lists),
 * `page` and `total` beside `data` (signals, blast radius, analyses) or a `pagination` object (pipelines).
 */
export type PagePlacement = 'meta' | 'pageAndTotal' | 'pagination';

const pagingFields = (request: PageRequest, info: PageInfo, placement: PagePlacement): Record<string, unknown> => {
  const meta = pageMeta(request, info);
  switch (placement) {
    case 'meta':
      return { meta };
    case 'pageAndTotal':
      return {
        page: meta.page,
        total: meta.total,
        ...(meta.nextCursor !== undefined && { nextCursor: meta.nextCursor }),
      };
    case 'pagination':
      return { pagination: meta };
  }
};

/** `paging`: the list's total, or all that its page answer says (`nextCursor` where a cursor was asked for). */
export const paged = (
  data: unknown,
  request: PageRequest,
  paging: number | PageInfo,
  placement: PagePlacement = 'meta',
  message?: string,
): JsonResult => {
  const info = typeof paging === 'number' ? { total: paging } : paging;
  return ok(data, { extra: pagingFields(request, info, placement), ...(message && { message }) });
};
