import * as z from 'zod/mini';
import { ianaTimezone } from '#lib/contract/fields.ts';
import { EVERY_TEAM, MAX_RULES } from './silent-hours.ts';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

const time = z
  .string()
  .check(
    z.regex(HH_MM, 'must be a time HH:MM on the 24-hour clock, 00:00 to 23:59'),
    z.describe('HH:MM, 24-hour, in the rule time zone'),
  );

const SLUG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

const teamScope = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.maxLength(100, 'must be at most 100 characters'),
  z.refine(
    (value) => value === EVERY_TEAM || SLUG.test(value),
    'must be a team slug (letters, digits, - or _) or * for every team',
  ),
  z.describe('Team slug the rule silences, or * for every team'),
);

/** Repeated days are kept once, in order: the set of days is what a rule means. */
const daysOfWeek = z.pipe(
  z
    .array(z.number().check(z.int('must be whole numbers'), z.gte(1, 'must be 1 to 7'), z.lte(7, 'must be 1 to 7')))
    .check(
      z.minLength(1, 'must name at least one day'),
      z.maxLength(7, 'must name at most 7 days'),
      z.describe('Days a window starts on: 1 = Monday to 7 = Sunday'),
    ),
  z.transform((days) => [...new Set(days)].sort((a, b) => a - b)),
);

/**
 * Every field is required on write (spec), but `isActive`, whose default is true. An `endTime` earlier
 * than `startTime` spans midnight; one equal to it makes a 24-hour window.
 */
export const ruleBody = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  startTime: time,
  endTime: time,
  timezone: ianaTimezone,
  daysOfWeek,
  teamScope,
  isActive: z._default(z.boolean(), true),
});
export type RuleInput = z.output<typeof ruleBody>;

export const replaceRulesBody = z.object({
  rules: z
    .array(ruleBody)
    .check(
      z.maxLength(MAX_RULES, `must hold at most ${MAX_RULES} rules`),
      z.describe('The complete set; rules left out are deleted'),
    ),
});
export type ReplaceRulesInput = z.output<typeof replaceRulesBody>;

/** Any string: a value that is not a rule id is simply not found (404). */
export const ruleIdParams = z.object({ id: z.string().check(z.minLength(1)) });

const ruleView = z.object({
  id: z.string(),
  name: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  timezone: z.string(),
  daysOfWeek: z.array(z.number()),
  teamScope: z.string(),
  isActive: z.boolean(),
});

export const ruleResponse = ruleView;
export const rulesResponse = z.object({ rules: z.array(ruleView) });
export const deletedRuleResponse = z.object({ id: z.string() });
