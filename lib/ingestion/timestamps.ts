const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const EPOCH_SECONDS = /^\d{10}$/;
const EPOCH_MILLISECONDS = /^\d{13}$/;
/** Go's zero time, which Alertmanager sends as the `endsAt` of an alert that has not ended. */
const GO_ZERO_TIME = /^0001-01-01/;

/** What a date-time field answers for a value that does not read as one. */
export const INVALID_DATE_TIME = 'Invalid ISO 8601 date-time';

/** The instant a sender's value names, in milliseconds; undefined if it names none or one a Date cannot hold. */
const instantOf = (value: unknown): number | undefined => {
  let milliseconds = Number.NaN;
  if (typeof value === 'number') milliseconds = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (EPOCH_SECONDS.test(text)) milliseconds = Number(text) * 1000;
    else if (EPOCH_MILLISECONDS.test(text)) milliseconds = Number(text);
    else if (DATE_TIME.test(text)) milliseconds = Date.parse(text);
  }
  // Beyond ±8.64e15 ms a Date is invalid, and toISOString would throw.
  return Number.isNaN(new Date(milliseconds).getTime()) ? undefined : milliseconds;
};

/** Go's zero time as a date-time that reads: the time a Go sender writes for "not set". */
export const isGoZeroTime = (value: unknown): boolean =>
  typeof value === 'string' && GO_ZERO_TIME.test(value.trim()) && instantOf(value) !== undefined;

/**
 * ISO 8601 from the forms senders write: ISO with any fraction (Alertmanager's nanoseconds, Kubernetes'
 * microseconds), code host B's `2016-08-12 15:23:28 UTC` and `2021-04-28 21:50:00 +0200`, epoch seconds or
 * milliseconds as a number or string (the monitoring tool's `$DATE`). Undefined for Go's zero time and for
 * anything else, an unsubstituted template variable included.
 */
export const toIsoTimestamp = (value: unknown): string | undefined => {
  const milliseconds = instantOf(value);
  return milliseconds === undefined || isGoZeroTime(value) ? undefined : new Date(milliseconds).toISOString();
};

/** Seconds from `start` to `end`; null when either is missing or the sender's clock puts the end first. */
export const secondsBetween = (start: string | null | undefined, end: string | null | undefined): number | null => {
  if (!start || !end) return null;
  const seconds = (Date.parse(end) - Date.parse(start)) / 1000;
  return seconds >= 0 ? seconds : null;
};

/** The latest of the given ISO timestamps. */
export const latestTimestamp = (...timestamps: (string | null | undefined)[]): string | undefined =>
  timestamps.reduce<string | undefined>((latest, t) => (t && (!latest || t > latest) ? t : latest), undefined);
