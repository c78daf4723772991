import type { Scope } from '#lib/identity/scope.ts';
import { assignmentsOverlapping, listAssignments } from '#lib/on-call/on-call-service.ts';
import type { OnCallAssignment } from '#lib/on-call/on-call.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import type { Override, Schedule } from './schedule.ts';
import { scheduleRepository } from './schedule-repository.ts';

/**
 * The workspace's default schedule (docs/on-call.md, "The default schedule"): present in every workspace under
 * this id without being created, with no layers until it is given some. The spec's `assign-member` assignments
 * are its overrides, and the default escalation pages whoever it puts on call when no assignment covers.
 */
export const DEFAULT_SCHEDULE_ID = 'default';
const DEFAULT_SCHEDULE_NAME = 'Default';

const repositoryOf = (scope: Scope) => scheduleRepository(scope.ports.table, scope.workspaceId);

/**
 * The default schedule as stored, stored first when it was not yet: a conditional write, so of two first reads
 * at once one stores it and both answer the same record (its calendar secret included).
 */
const storedDefault = async (scope: Scope): Promise<Schedule> => {
  const repository = repositoryOf(scope);
  const stored = await repository.getSchedule(DEFAULT_SCHEDULE_ID);
  if (stored) return stored;
  const now = scope.ports.clock.now().toISOString();
  const created: Schedule = {
    id: DEFAULT_SCHEDULE_ID,
    name: DEFAULT_SCHEDULE_NAME,
    timezone: await workspaceTimezone(scope),
    layers: [],
    feedSecret: scope.ports.ids.secret(16),
    createdAt: now,
    updatedAt: now,
  };
  if (await repository.putScheduleIfAbsent(created)) return created;
  return (await repository.getSchedule(DEFAULT_SCHEDULE_ID)) ?? created;
};

/** A schedule of the workspace by id: the default one always exists. */
export const findSchedule = async (scope: Scope, scheduleId: string): Promise<Schedule | undefined> =>
  scheduleId === DEFAULT_SCHEDULE_ID ? storedDefault(scope) : repositoryOf(scope).getSchedule(scheduleId);

/** The default schedule before anybody read or wrote it: no layers, so its assignments alone put people on call. */
const layerlessDefault: Schedule = {
  id: DEFAULT_SCHEDULE_ID,
  name: DEFAULT_SCHEDULE_NAME,
  timezone: 'UTC',
  layers: [],
  feedSecret: '',
  createdAt: '',
  updatedAt: '',
};

/** A schedule to page by, read only (paging never writes): the default one exists even when not stored. */
export const scheduleToPageBy = async (scope: Scope, scheduleId: string): Promise<Schedule | undefined> =>
  (await repositoryOf(scope).getSchedule(scheduleId)) ??
  (scheduleId === DEFAULT_SCHEDULE_ID ? layerlessDefault : undefined);

/** Every schedule to page by and to tell handoffs of, read only: the stored ones and the default one. */
export const schedulesToPageBy = async (scope: Scope): Promise<Schedule[]> => {
  const stored = await repositoryOf(scope).listSchedules();
  return stored.some((schedule) => schedule.id === DEFAULT_SCHEDULE_ID) ? stored : [layerlessDefault, ...stored];
};

/** Every schedule of the workspace, the default one first: the list holds it once stored, else it is stored now. */
export const allSchedules = async (scope: Scope): Promise<Schedule[]> => {
  const stored = await repositoryOf(scope).listSchedules();
  const first = stored.find((schedule) => schedule.id === DEFAULT_SCHEDULE_ID) ?? (await storedDefault(scope));
  return [first, ...stored.filter((schedule) => schedule.id !== DEFAULT_SCHEDULE_ID)];
};

/** An assignment as the default schedule's override: its instants, and where it came from. */
const assignmentOverride = (assignment: OnCallAssignment): Override => ({
  id: assignment.id,
  scheduleId: DEFAULT_SCHEDULE_ID,
  userId: assignment.userId,
  start: assignment.startsAt,
  end: assignment.endsAt,
  createdAt: assignment.createdAt,
  source: 'assignment',
});

/**
 * A schedule's overrides: those posted to it and, for the default schedule, the assignments (all of them, or
 * those overlapping `window`). Where two overlap the one created last wins (final-shifts.ts), so they are
 * answered in the order they were created.
 */
export const overridesOf = async (
  scope: Scope,
  scheduleId: string,
  window?: { start: number; end: number },
): Promise<Override[]> => {
  const posted = repositoryOf(scope).listOverrides(scheduleId);
  if (scheduleId !== DEFAULT_SCHEDULE_ID) return posted;
  const assignments = window ? assignmentsOverlapping(scope, window) : listAssignments(scope);
  const merged = [...(await posted), ...(await assignments).map(assignmentOverride)];
  return merged.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
};
