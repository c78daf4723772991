import { localDate, zonedTimeToUtc } from '#lib/contract/zoned-time.ts';

/** A recurring window in which a team's notifications are muted (spec: Silent-hours rule). */
export interface SilentHoursRule {
  id: string;
  name: string;
  /** `HH:MM`, 24-hour, wall clock in `timezone`. */
  startTime: string;
  /** `HH:MM`; earlier than `startTime` (or equal to it) means the window ends on the next day. */
  endTime: string;
  timezone: string;
  /** ISO weekdays, 1 = Monday to 7 = Sunday: the days a window starts on. */
  daysOfWeek: number[];
  /** A team slug, or `*` for every team. */
  teamScope: string;
  isActive: boolean;
}

/** The `teamScope` that covers every team. */
export const EVERY_TEAM = '*';

/** At most this many rules: the set lives in one item (docs/data-model.md 5.11), far below 400 KB. */
export const MAX_RULES = 100;

/** Rule ids are ULIDs; any other path value names no rule and is answered without a read. */
export const isRuleId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);

const DAY_MS = 24 * 60 * 60 * 1000;

/** A calendar date moved by whole days; dates are zone-free, so UTC arithmetic is exact. */
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** 1 = Monday to 7 = Sunday. */
const isoWeekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

/**
 * Whether the window a rule opens on `date` covers `instant`. Its bounds are wall-clock times resolved in
 * the rule's zone on their own dates, so a window across a daylight-saving change is as long as the
 * clocks say (22:00 to 06:00 lasts 7 hours the night clocks go forward); a start the jump skips begins
 * at the first instant after it.
 */
const windowCovers = (rule: SilentHoursRule, date: string, instant: number): boolean => {
  if (!rule.daysOfWeek.includes(isoWeekday(date))) return false;
  const endDate = rule.endTime <= rule.startTime ? addDays(date, 1) : date;
  const start = zonedTimeToUtc(date, rule.startTime, rule.timezone).getTime();
  const end = zonedTimeToUtc(endDate, rule.endTime, rule.timezone).getTime();
  return start <= instant && instant < end;
};

const coversTeam = (rule: SilentHoursRule, team: string): boolean =>
  rule.teamScope === EVERY_TEAM || rule.teamScope === team.trim().toLowerCase();

/**
 * Whether any active rule of the set silences `team` at `instant` (start inclusive, end exclusive). A
 * window that crosses midnight belongs to the day it starts on, so the windows opened on the instant's
 * local date and on the day before are the only candidates.
 */
export const silentAt = (rules: readonly SilentHoursRule[], team: string, instant: Date): boolean =>
  rules.some((rule) => {
    if (!rule.isActive || !coversTeam(rule, team)) return false;
    const today = localDate(instant, rule.timezone);
    return [addDays(today, -1), today].some((date) => windowCovers(rule, date, instant.getTime()));
  });
