import { localDateTime, offsetAt, offsetText } from '#lib/contract/zoned-time.ts';
import { hourOf, hourStart } from '#lib/rollups/metric-hour-repository.ts';

export const GRANULARITIES = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The bucket label of a UTC hour in a zone: the local hour (`2026-03-29T03:00:00+02:00`, the offset
 * telling the two hours of a fall-back night apart), the local date, or the local date of the Monday
 * of its week. The hour is placed by its middle: with a whole-hour offset every UTC hour lies inside
 * one local hour, day and week; with a half- or quarter-hour offset (India +05:30, Nepal +05:45) a
 * UTC hour straddles two local hours, and goes whole to the one holding most of it, so those zones see
 * their bucket edges within 30 minutes of the local ones.
 */
export const bucketOfHour = (hour: string, timeZone: string, granularity: Granularity): string => {
  const middle = hourStart(hour) + HOUR_MS / 2;
  const local = localDateTime(middle, timeZone);
  const date = local.slice(0, 10);
  if (granularity === 'hour') return `${date}T${local.slice(11, 13)}:00:00${offsetText(offsetAt(timeZone, middle))}`;
  if (granularity === 'day') return date;
  const daysSinceMonday = (new Date(Date.parse(date)).getUTCDay() + 6) % 7;
  return new Date(Date.parse(date) - daysSinceMonday * DAY_MS).toISOString().slice(0, 10);
};

/** Every UTC hour from the one holding `from` to the one holding `to`, oldest first. */
export const hoursBetween = (from: string, to: string): string[] => {
  const hours: string[] = [];
  for (let start = hourStart(hourOf(from)); start <= Date.parse(to); start += HOUR_MS)
    hours.push(hourOf(new Date(start)));
  return hours;
};
