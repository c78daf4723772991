import type { Scope } from '#lib/identity/scope.ts';
import { type FinalShift, onCallAt, type ScheduleOverride } from '#lib/on-call/final-shifts.ts';
import type { Override } from './schedule.ts';
import { scheduleRepository } from './schedule-repository.ts';

/** Overrides as the rotation math reads them: instants in milliseconds. */
export const asSpans = (overrides: Override[]): ScheduleOverride[] =>
  overrides.map((o) => ({ id: o.id, userId: o.userId, start: Date.parse(o.start), end: Date.parse(o.end) }));

/**
 * The final shift of a schedule covering `at` (layers stacked, overrides on top), or undefined when nobody is on
 * call then or the schedule is gone: what `on-call` answers and what an escalation level naming it pages.
 */
export const scheduleShiftAt = async (scope: Scope, scheduleId: string, at: Date): Promise<FinalShift | undefined> => {
  const repository = scheduleRepository(scope.ports.table, scope.workspaceId);
  const schedule = await repository.getSchedule(scheduleId);
  if (!schedule) return undefined;
  return onCallAt(schedule, asSpans(await repository.listOverrides(scheduleId)), at.getTime());
};
