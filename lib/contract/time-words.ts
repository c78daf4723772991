import { localDateTime } from './zoned-time.ts';

/**
 * Times as people read them, in the workspace's zone: the one module every text for people (mail, SMS, chat,
 * the acknowledge page, incident descriptions, analysis texts, timelines, invitations) takes its times from, so
 * none of them shows an ISO-8601 instant. The PDF lays its times out in columns (lib/reports/pdf/format.ts) on
 * the same wall clock (`localDateTime`).
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `06:15 on 27 November 2026 (Europe/Paris)`: an instant on the zone's wall clock, as people write it. */
export const clockInWords = (instant: string, timeZone = 'UTC'): string => {
  const [date = '', time = ''] = localDateTime(Date.parse(instant), timeZone).split('T');
  const [year, month, day] = date.split('-');
  return `${time.slice(0, 5)} on ${Number(day)} ${MONTHS[Number(month) - 1]} ${year} (${timeZone})`;
};

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** `Mon 09:00 on 7 December 2026 (Europe/Berlin)`: with its weekday, for when a shift or a stretch ends. */
export const weekdayClockInWords = (instant: string, timeZone = 'UTC'): string => {
  const date = localDateTime(Date.parse(instant), timeZone).split('T')[0] ?? '';
  const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];
  return `${weekday} ${clockInWords(instant, timeZone)}`;
};

/** `14:02`: an instant on the zone's wall clock, for a time told after its day has been said. */
export const timeOfDayInWords = (instant: string, timeZone = 'UTC'): string =>
  localDateTime(Date.parse(instant), timeZone).split('T')[1]?.slice(0, 5) ?? '';

export const minutesBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));

/** Words for people outside engineering: `under a minute`, `12 minutes`, `2 hours 5 minutes`. */
export const durationInWords = (minutes: number): string => {
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest > 0 ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
};

/** `12 minutes ago`, `just now`; an instant ahead of `now` (a sender's clock running fast) is `just now`. */
export const agoInWords = (instant: string, now: Date): string => {
  const minutes = minutesBetween(instant, now.toISOString());
  return minutes < 1 ? 'just now' : `${durationInWords(minutes)} ago`;
};

/** `since 04:10 on 28 November 2026 (Europe/Berlin), 12 minutes ago`. */
export const sinceInWords = (instant: string, now: Date, timeZone = 'UTC'): string =>
  `since ${clockInWords(instant, timeZone)}, ${agoInWords(instant, now)}`;

/** An ISO-8601 instant (a date, a time, an offset or `Z`), as senders and engineers write them. */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;

/**
 * Outside text (an alert's name, an incident's description, a resolving comment) as people read it: any
 * ISO-8601 instant in it said in words, in the workspace's zone.
 */
export const instantsInWords = (text: string, timeZone = 'UTC'): string =>
  text.replace(ISO_INSTANT, (instant) =>
    Number.isNaN(Date.parse(instant)) ? instant : clockInWords(instant, timeZone),
  );
