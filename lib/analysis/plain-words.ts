import { localDateTime } from '#lib/contract/zoned-time.ts';

/** Words for people outside engineering: durations and severities without numbers they must decode. */
export const durationInWords = (minutes: number): string => {
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours === 1 ? '' : 's'}${rest > 0 ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
};

/**
 * A priority in plain words: what happened, and what it meant (the spec's meanings: MEDIUM is degraded
 * service, LOW minimal impact with no customer effect), said after the service and duration.
 */
export const PRIORITY_WORDS: Record<string, { what: string; meaning?: string }> = {
  CRITICAL: { what: 'a severe outage' },
  HIGH: { what: 'a major disruption' },
  MEDIUM: { what: 'a partial disruption', meaning: 'with the service slower or less reliable than usual' },
  LOW: { what: 'a minor problem', meaning: 'with no effect on customers' },
};

export const minutesBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));

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

/** `14:02`: an instant on the zone's wall clock, for a time told after its day has been said. */
export const timeOfDayInWords = (instant: string, timeZone = 'UTC'): string =>
  localDateTime(Date.parse(instant), timeZone).split('T')[1]?.slice(0, 5) ?? '';

/** An ISO-8601 instant (a date, a time, an offset or `Z`), as senders and engineers write them. */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;

/**
 * Outside text (an alert's name, an incident's description, a resolving comment) as the analysis quotes it:
 * any ISO-8601 instant in it said in words, in the workspace's zone, so no text of the analysis carries one.
 */
export const instantsInWords = (text: string, timeZone = 'UTC'): string =>
  text.replace(ISO_INSTANT, (instant) =>
    Number.isNaN(Date.parse(instant)) ? instant : clockInWords(instant, timeZone),
  );
