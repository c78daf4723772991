import * as z from 'zod/mini';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A calendar date that exists: `2026-02-30` is refused. */
const date = z.iso.date({ error: 'must be a real date in the form YYYY-MM-DD' });

const startTime = z.string().check(z.regex(HH_MM, 'must be a time HH:MM on the 24-hour clock, 00:00 to 23:59'));

/** `24:00` is the end of the date, so a shift can run to midnight. */
const isEndTime = (value: string): boolean => HH_MM.test(value) || value === '24:00';

const endTime = z
  .string()
  .check(
    z.refine(isEndTime, 'must be a time HH:MM on the 24-hour clock, 00:00 to 24:00'),
    z.describe('HH:MM, 24-hour, after startTime; 24:00 is the end of the date'),
  );

export const assignMemberBody = z
  .object({
    userId: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'must not be empty'),
        z.maxLength(64),
        z.describe("A member of the caller's workspace"),
      ),
    date: date.check(z.describe("In the workspace time zone (IMS configuration, else the business's, else UTC)")),
    startTime: startTime.check(z.describe('HH:MM, 24-hour')),
    endTime,
  })
  .check(
    z.refine(({ startTime: start, endTime: end }) => !HH_MM.test(start) || !isEndTime(end) || end > start, {
      message: 'must be after startTime',
      path: ['endTime'],
    }),
  );
export type AssignMemberInput = z.output<typeof assignMemberBody>;

/** Any string: a value that is not an assignment id is simply not found (404). */
export const assignmentIdParams = z.object({ id: z.string().check(z.minLength(1)) });

/** The On-call assignment resource; `startsAt` and `endsAt` are the UTC instants of the local date and times. */
export const assignmentData = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  timezone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  createdAt: z.string(),
});
export const assignmentsData = z.object({ assignments: z.array(assignmentData) });
