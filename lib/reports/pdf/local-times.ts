import type { TimeFormat } from './format.ts';

/** An instant written into text (a signal line of a correlated incident's description, an analysis' evidence). */
const EMBEDDED_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})(?!\w)/g;
const WHOLE_TIME = new RegExp(`^${EMBEDDED_TIME.source}$`);

type Value = unknown;

/**
 * The report with every instant written inside its texts in the workspace's zone and the report's one
 * format, as the renderer prints its own times: a reader meets one clock, not UTC in one sentence and the
 * workspace's time in the next. A value that is a timestamp and nothing else is the renderer's to format,
 * and is left as it is.
 */
export const withLocalTimes = <T>(report: T, time: TimeFormat): T => {
  const walk = (value: Value): Value => {
    if (typeof value === 'string') {
      return WHOLE_TIME.test(value) ? value : value.replace(EMBEDDED_TIME, (instant) => time(instant));
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    }
    return value;
  };
  return walk(report) as T;
};
