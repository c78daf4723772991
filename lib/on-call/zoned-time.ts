const DAY_MS = 24 * 60 * 60 * 1000;

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

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
const offsetAt = (timeZone: string, instant: number): number => {
  const whole = Math.floor(instant / 1000) * 1000;
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(whole))
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - whole;
};

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
