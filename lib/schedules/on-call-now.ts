import type { Scope } from '#lib/identity/scope.ts';
import { type FinalShift, lookAround, onCallAt, type ScheduleOverride } from '#lib/on-call/final-shifts.ts';
import { DEFAULT_SCHEDULE_ID, overridesOf, scheduleToPageBy } from './default-schedule.ts';
import { scheduleRepository } from './schedule-repository.ts';
import type { Member } from '#lib/workspaces/workspace.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import type { Override, Schedule } from './schedule.ts';

/** Overrides as the rotation math reads them: instants in milliseconds. */
export const asSpans = (overrides: Override[]): ScheduleOverride[] =>
  overrides.map((o) => ({ id: o.id, userId: o.userId, start: Date.parse(o.start), end: Date.parse(o.end) }));

/** The final shift of a schedule covering `at` (layers stacked, overrides on top), or undefined for nobody. */
const shiftIn = async (scope: Scope, schedule: Schedule, at: Date): Promise<FinalShift | undefined> =>
  onCallAt(schedule, asSpans(await overridesOf(scope, schedule.id, lookAround(at.getTime()))), at.getTime());

/**
 * The final shift of a schedule covering `at`, or undefined when nobody is on call then or the schedule is gone:
 * what an escalation level naming it pages.
 */
export const scheduleShiftAt = async (scope: Scope, scheduleId: string, at: Date): Promise<FinalShift | undefined> => {
  const schedule = await scheduleToPageBy(scope, scheduleId);
  return schedule && shiftIn(scope, schedule, at);
};

/**
 * Who the default schedule puts on call at `at` by its layers and posted overrides, for the default escalation when
 * no assignment covers the instant (docs/on-call.md, "The default schedule"); nobody before it was ever stored
 * (it has neither layers nor posted overrides until then).
 */
export const defaultScheduleMember = async (scope: Scope, at: Date): Promise<Member | undefined> => {
  const repository = scheduleRepository(scope.ports.table, scope.workspaceId);
  const stored = await repository.getSchedule(DEFAULT_SCHEDULE_ID);
  if (!stored) return undefined;
  // No assignment covers `at` (the caller has just asked), so only the posted overrides can win there: the
  // assignments are not read a second time.
  const posted = asSpans(await repository.listOverrides(DEFAULT_SCHEDULE_ID));
  const shift = onCallAt(stored, posted, at.getTime());
  return shift && workspaceRepository(scope.ports.table, scope.workspaceId).getMember(shift.userId);
};
