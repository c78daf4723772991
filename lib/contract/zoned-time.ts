/**
 * Wall clocks of IANA zones, from the runtime's own time-zone data (Intl): the one place the service turns
 * an instant into a zone's local date and time, or a local time back into an instant.
 */
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterFor = (timeZone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
};

/** The zone's wall clock at an instant (whole seconds), as a UTC timestamp holding the same fields. */
const wallClockAt = (timeZone: string, instant: number): number => {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(Math.floor(instant / 1000) * 1000))
      .map((part) => [part.type, Number(part.value)]),
  );
  return Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
};

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
export const offsetAt = (timeZone: string, instant: number): number =>
  wallClockAt(timeZone, instant) - Math.floor(instant / 1000) * 1000;

const pad = (value: number): string => String(value).padStart(2, '0');

/** An offset as ISO 8601 writes it: `+05:30`, `-03:00`, `+00:00`. */
export const offsetText = (offsetMs: number): string => {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  return `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
};

/** `2024-05-01T16:05:12`: the zone's wall clock at an instant, without an offset. */
export const localDateTime = (instant: Date | number, timeZone: string): string =>
  new Date(wallClockAt(timeZone, Number(instant))).toISOString().slice(0, 19);

/** `2024-05-01`: the calendar date the zone's wall clock shows at an instant. */
export const localDate = (instant: Date | number, timeZone: string): string =>
  localDateTime(instant, timeZone).slice(0, 10);

/**
 * The UTC instant of a wall-clock time (`HH:MM`, `24:00` meaning the end of the date) on a date in an
 * IANA zone. Around clock changes it resolves as JavaScript's Temporal does by default ("compatible"):
 * a time that occurs twice is the earlier, a time skipped by a jump forward is moved forward by the jump.
 */
export const zonedTimeToUtc = (date: string, time: string, timeZone: string): Date => {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const offsetBefore = offsetAt(timeZone, wall - DAY_MS);
  const offsetAfter = offsetAt(timeZone, wall + DAY_MS);
  const matching = [wall - offsetBefore, wall - offsetAfter].filter(
    (instant) => instant + offsetAt(timeZone, instant) === wall,
  );
  return new Date(matching.length > 0 ? Math.min(...matching) : wall - offsetBefore);
};
