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
