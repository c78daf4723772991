import { BadRequestError } from '#lib/contract/errors.ts';
import type { Granularity } from './zoned-buckets.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The window when `from` is not given: the 30 days before `to` (spec: Dashboard). */
const DEFAULT_WINDOW_DAYS = 30;
/** The longest window: a year and a day, so a whole leap year fits. */
const MAX_WINDOW_DAYS = 366;
/** Hourly points over at most 31 days: 744 points, as many as a chart can show. */
const MAX_HOURLY_WINDOW_DAYS = 31;

export interface DashboardWindow {
  from: string;
  to: string;
}

/**
 * The window asked for, with its defaults (`to` now, `from` 30 days before `to`), or a 400 naming each
 * bound that is wrong. Checked here rather than in the query schema because the defaults depend on the
 * clock, and a lone `from` after now is as wrong as one after `to`.
 */
export const resolveWindow = (
  now: Date,
  query: { from?: string; to?: string },
  granularity?: Granularity,
): DashboardWindow => {
  const to = query.to ?? now.toISOString();
  const from = query.from ?? new Date(Date.parse(to) - DEFAULT_WINDOW_DAYS * DAY_MS).toISOString();
  const span = Date.parse(to) - Date.parse(from);
  const errors: string[] = [];
  if (span <= 0) errors.push(`from: must be before to (${to})`);
  else if (span > MAX_WINDOW_DAYS * DAY_MS) errors.push(`from: must be at most ${MAX_WINDOW_DAYS} days before to`);
  else if (granularity === 'hour' && span > MAX_HOURLY_WINDOW_DAYS * DAY_MS) {
    errors.push(`granularity: hour covers at most ${MAX_HOURLY_WINDOW_DAYS} days; ask for day or week`);
  }
  if (errors.length > 0) throw new BadRequestError('Validation failed', errors);
  return { from, to };
};
