import * as z from 'zod';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A calendar date that exists: `2026-02-30` is refused. */
const date = z.iso.date({ error: 'must be a real date in the form YYYY-MM-DD' });

const startTime = z.string().regex(HH_MM, 'must be a time HH:MM on the 24-hour clock, 00:00 to 23:59');

/** `24:00` is the end of the date, so a shift can run to midnight. */
const isEndTime = (value: string): boolean => HH_MM.test(value) || value === '24:00';

const endTime = z
  .string()
  .refine(isEndTime, 'must be a time HH:MM on the 24-hour clock, 00:00 to 24:00')
  .describe('HH:MM, 24-hour, after startTime; 24:00 is the end of the date');

export const assignMemberBody = z
  .object({
    userId: z.string().trim().min(1, 'must not be empty').max(64).describe("A member of the caller's workspace"),
    date: date.describe("In the workspace time zone (IMS configuration, else the business's, else UTC)"),
    startTime: startTime.describe('HH:MM, 24-hour'),
    endTime,
  })
  // Compared only when both are well-formed times, which then order as strings; else their own messages say why.
  .refine(({ startTime: start, endTime: end }) => !HH_MM.test(start) || !isEndTime(end) || end > start, {
    message: 'must be after startTime',
    path: ['endTime'],
  });
export type AssignMemberInput = z.output<typeof assignMemberBody>;

/** Any string: a value that is not an assignment id is simply not found (404). */
export const assignmentIdParams = z.object({ id: z.string().min(1) });
