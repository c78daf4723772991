import type { FinalShift } from './final-shifts.ts';

/**
 * A schedule's shifts as an RFC 5545 calendar (what Google Calendar and Outlook subscribe to). Written by
 * hand: a VCALENDAR of UTC VEVENTs is ~40 lines, smaller than either library's dependency tree.
 */
const stamp = (instant: number): string => `${new Date(instant).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/** RFC 5545 3.3.11: backslash, semicolon, comma and newlines escaped in TEXT values. */
const text = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** RFC 5545 3.1: lines longer than 75 octets folded with CRLF and a space. */
const fold = (line: string): string => {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    const limit = parts.length === 0 ? 75 : 74;
    if (Buffer.byteLength(current + char, 'utf8') > limit) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
};

export interface CalendarFeedInput {
  scheduleId: string;
  scheduleName: string;
  shifts: FinalShift[];
  /** Member id to the name people read. */
  nameOf: (userId: string) => string;
  generatedAt: number;
}

export const calendarFeed = ({ scheduleId, scheduleName, shifts, nameOf, generatedAt }: CalendarFeedInput): string => {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//incident-service//on-call//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(`On call: ${scheduleName}`)}`,
    ...shifts.flatMap((shift) => [
      'BEGIN:VEVENT',
      `UID:${scheduleId}-${shift.start}-${shift.userId}@incident-service`,
      `DTSTAMP:${stamp(generatedAt)}`,
      `DTSTART:${stamp(shift.start)}`,
      `DTEND:${stamp(shift.end)}`,
      `SUMMARY:${text(`${nameOf(shift.userId)} on call (${scheduleName})`)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
};
