import * as z from 'zod/mini';
import { ianaTimezone } from '#lib/contract/fields.ts';

/** Request schemas of the schedules routes (docs/on-call.md). */
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_LAYERS = 10;
const MAX_MEMBERS = 50;

/** The widest window `shifts` answers: a month of shifts is what a calendar view shows. */
const MAX_SHIFTS_WINDOW_DAYS = 31;

const time = (what: string) =>
  z.string().check(z.regex(HH_MM, 'must be a time HH:MM on the 24-hour clock, 00:00 to 23:59'), z.describe(what));

/** An instant with an offset, stored and answered in UTC. */
const instant = z.pipe(
  z.string().check(
    z.trim(),
    z.refine(
      (value) => z.iso.datetime({ offset: true }).safeParse(value).success,
      'must be an ISO 8601 date-time with an offset, such as 2026-03-02T09:00:00Z',
    ),
  ),
  z.transform((value) => new Date(value).toISOString()),
);

const restrictions = z.object({
  daysOfWeek: z
    .array(z.number().check(z.int('must be whole numbers'), z.gte(1, 'must be 1 to 7'), z.lte(7, 'must be 1 to 7')))
    .check(z.minLength(1, 'must name at least one day'), z.maxLength(7, 'must name at most 7 days')),
  startTime: time('HH:MM in the schedule time zone, when the window opens each listed day'),
  endTime: time('HH:MM in the schedule time zone; earlier than startTime spans midnight'),
});

const layer = z
  .object({
    start: instant,
    rotationType: z.enum(['daily', 'weekly', 'custom']),
    rotationHours: z.optional(
      z
        .number()
        .check(
          z.int('must be a whole number of hours'),
          z.gte(1, 'must be 1 to 8760'),
          z.lte(8760, 'must be 1 to 8760'),
        ),
    ),
    handoffTime: time('HH:MM in the schedule time zone when one turn hands off to the next'),
    members: z
      .array(z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters')))
      .check(
        z.minLength(1, 'must name at least one member'),
        z.maxLength(MAX_MEMBERS, `must name at most ${MAX_MEMBERS} members`),
        z.describe("Member ids of the workspace, or open invitations' inviteId (docs/on-call.md), in turn order"),
      ),
    restrictions: z.optional(restrictions),
  })
  .check(
    z.refine((value) => value.rotationType !== 'custom' || value.rotationHours !== undefined, {
      message: 'is required when rotationType is custom',
      path: ['rotationHours'],
    }),
  );

export const scheduleBody = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  timezone: ianaTimezone,
  layers: z
    .array(layer)
    .check(
      z.minLength(1, 'must hold at least one layer'),
      z.maxLength(MAX_LAYERS, `must hold at most ${MAX_LAYERS} layers`),
      z.describe('Layers in order; a later layer wins where it covers'),
    ),
});
export type ScheduleInput = z.output<typeof scheduleBody>;

const id = z.string().check(z.minLength(1), z.maxLength(100));
export const scheduleIdParams = z.object({ id });
export const overrideIdParams = z.object({ id, overrideId: id });

export const overrideBody = z
  .object({
    userId: id,
    start: instant,
    end: instant,
  })
  .check(z.refine(({ start, end }) => start < end, { message: 'must be after start', path: ['end'] }));
export type OverrideInput = z.output<typeof overrideBody>;

export const onCallQuery = z.object({ at: z.optional(instant) });

export const shiftsQuery = z.object({ from: instant, to: instant }).check(
  z.refine(({ from, to }) => from < to, { message: 'must be after from', path: ['to'] }),
  z.refine(({ from, to }) => Date.parse(to) - Date.parse(from) <= MAX_SHIFTS_WINDOW_DAYS * 86_400_000, {
    message: `must be at most ${MAX_SHIFTS_WINDOW_DAYS} days after from`,
    path: ['to'],
  }),
);

export const calendarTokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(2048)) });
