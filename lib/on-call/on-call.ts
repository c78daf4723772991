/**
 * A member on call for a span of one date (spec: On-call assignment). `date`, `startTime` and `endTime`
 * are as given, in `timezone`; `startsAt` and `endsAt` are the UTC instants they meant when assigned.
 */
export interface OnCallAssignment {
  id: string;
  userId: string;
  /** The member's e-mail when assigned, so whoever pages the person needs no second read. */
  email: string;
  date: string;
  startTime: string;
  endTime: string;
  timezone: string;
  startsAt: string;
  endsAt: string;
  createdAt: string;
}

/** Assignment ids are ULIDs; any other path value names no assignment and is answered without a read. */
export const isAssignmentId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);

/**
 * The longest a shift can last: 00:00 to 24:00 of a day on which the clocks go back, 25 hours, with an
 * hour to spare. "Who is on call at T" looks this far back for shifts that started before T.
 */
export const MAX_SHIFT_MS = 26 * 60 * 60 * 1000;

/** Two spans overlap when each starts before the other ends; a shift ending at 12:00 and one starting then do not. */
export const overlaps = (a: { startsAt: string; endsAt: string }, b: { startsAt: string; endsAt: string }): boolean =>
  a.startsAt < b.endsAt && b.startsAt < a.endsAt;
