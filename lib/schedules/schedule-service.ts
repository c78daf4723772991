import { BadRequestError, NotFoundError } from '#lib/contract/errors.ts';
import type { AccountScope, Scope } from '#lib/identity/scope.ts';
import { calendarFeed } from '#lib/on-call/calendar-feed.ts';
import { finalShifts, onCallAt, type FinalShift } from '#lib/on-call/final-shifts.ts';
import { memberName } from '#lib/workspaces/member-name.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { signCalendarLink, verifyCalendarLink } from './calendar-token.ts';
import { assignableIds } from './assignable-ids.ts';
import { asSpans } from './on-call-now.ts';
import type { Override, Schedule } from './schedule.ts';
import { scheduleRepository } from './schedule-repository.ts';
import type { OverrideInput, ScheduleInput } from './schemas.ts';

/** The calendar feed's window: last week (what just happened) and the next eight weeks (what to plan around). */
const FEED_PAST_MS = 7 * 86_400_000;
const FEED_AHEAD_MS = 56 * 86_400_000;

const notFound = (): NotFoundError => new NotFoundError('Schedule not found');

const repositoryOf = (scope: Scope) => scheduleRepository(scope.ports.table, scope.workspaceId);

/**
 * Every member id named must be a member of the caller's workspace, or an open invitation to it (assignable-ids.ts):
 * a 400 naming each unknown one.
 */
const checkMembers = async (scope: Scope, fields: { path: string; userId: string }[]): Promise<void> => {
  const members = await assignableIds(scope);
  const unknown = fields.filter(({ userId }) => !members.has(userId));
  if (unknown.length > 0) {
    throw new BadRequestError(
      'Unknown member',
      unknown.map(({ path, userId }) => `${path}: no member ${userId} in this workspace`),
    );
  }
};

const layerMembers = (input: ScheduleInput) =>
  input.layers.flatMap((layer, index) =>
    layer.members.map((userId, turn) => ({ path: `layers.${index}.members.${turn}`, userId })),
  );

/**
 * What the routes answer: the stored schedule without its secret, with the calendar link it makes on
 * `baseUrl`, the API's public URL as the caller reached it.
 */
const view = async (scope: Scope, schedule: Schedule, baseUrl: string) => {
  const { feedSecret, ...shown } = schedule;
  const token = await signCalendarLink(scope.ports.signingKeys, {
    workspaceId: scope.workspaceId,
    scheduleId: schedule.id,
    feedSecret,
  });
  return { ...shown, calendarUrl: `${baseUrl}/api/v1/calendar-feeds/${token}` };
};

const getOwn = async (scope: Scope, scheduleId: string): Promise<Schedule> => {
  const schedule = await repositoryOf(scope).getSchedule(scheduleId);
  if (!schedule) throw notFound();
  return schedule;
};

export const createSchedule = async (scope: Scope, input: ScheduleInput, baseUrl: string) => {
  await checkMembers(scope, layerMembers(input));
  const now = scope.ports.clock.now().toISOString();
  const schedule: Schedule = {
    id: scope.ports.ids.sortable(),
    ...input,
    feedSecret: scope.ports.ids.secret(16),
    createdAt: now,
    updatedAt: now,
  };
  await repositoryOf(scope).putSchedule(schedule);
  return view(scope, schedule, baseUrl);
};

export const listSchedules = async (scope: Scope, baseUrl: string) =>
  Promise.all((await repositoryOf(scope).listSchedules()).map((schedule) => view(scope, schedule, baseUrl)));

export const getSchedule = async (scope: Scope, scheduleId: string, baseUrl: string) =>
  view(scope, await getOwn(scope, scheduleId), baseUrl);

/** Replaces name, zone and layers; the id, the calendar link and the overrides stay. */
export const replaceSchedule = async (scope: Scope, scheduleId: string, input: ScheduleInput, baseUrl: string) => {
  const existing = await getOwn(scope, scheduleId);
  await checkMembers(scope, layerMembers(input));
  const schedule: Schedule = { ...existing, ...input, updatedAt: scope.ports.clock.now().toISOString() };
  await repositoryOf(scope).putSchedule(schedule);
  return view(scope, schedule, baseUrl);
};

export const deleteSchedule = async (scope: Scope, scheduleId: string): Promise<void> => {
  if (!(await repositoryOf(scope).deleteSchedule(scheduleId))) throw notFound();
};

export const createOverride = async (scope: Scope, scheduleId: string, input: OverrideInput): Promise<Override> => {
  await getOwn(scope, scheduleId);
  await checkMembers(scope, [{ path: 'userId', userId: input.userId }]);
  const override: Override = {
    id: scope.ports.ids.sortable(),
    scheduleId,
    ...input,
    createdAt: scope.ports.clock.now().toISOString(),
  };
  await repositoryOf(scope).putOverride(override);
  return override;
};

export const listOverrides = async (scope: Scope, scheduleId: string): Promise<Override[]> => {
  await getOwn(scope, scheduleId);
  return repositoryOf(scope).listOverrides(scheduleId);
};

export const deleteOverride = async (scope: Scope, scheduleId: string, overrideId: string): Promise<void> => {
  await getOwn(scope, scheduleId);
  if (!(await repositoryOf(scope).deleteOverride(scheduleId, overrideId))) {
    throw new NotFoundError('Override not found');
  }
};

const shiftOut = (shift: FinalShift) => ({
  userId: shift.userId,
  start: new Date(shift.start).toISOString(),
  end: new Date(shift.end).toISOString(),
  source: shift.source,
});

/** Who is on call at an instant (now when not given), with their whole final shift; `onCall` null for nobody. */
export const whoIsOnCall = async (scope: Scope, scheduleId: string, at: string | undefined) => {
  const schedule = await getOwn(scope, scheduleId);
  const overrides = asSpans(await repositoryOf(scope).listOverrides(scheduleId));
  const instant = at ?? scope.ports.clock.now().toISOString();
  const shift = onCallAt(schedule, overrides, Date.parse(instant));
  return { at: instant, onCall: shift ? shiftOut(shift) : null };
};

export const listShifts = async (scope: Scope, scheduleId: string, window: { from: string; to: string }) => {
  const schedule = await getOwn(scope, scheduleId);
  const overrides = asSpans(await repositoryOf(scope).listOverrides(scheduleId));
  return finalShifts(schedule, overrides, { start: Date.parse(window.from), end: Date.parse(window.to) }).map(shiftOut);
};

/**
 * The schedule's calendar for a feed link: a forged or altered link is a 400 naming `token`; a link of a
 * schedule that is gone (or was replaced by one with a new secret) is a 404.
 */
export const calendarOfLink = async (scope: AccountScope, token: string): Promise<string> => {
  const { ports } = scope;
  const link = await verifyCalendarLink(ports.signingKeys, token);
  if (!link) throw new BadRequestError('This calendar link is not valid', ['token: not a link this service made']);
  const repository = scheduleRepository(ports.table, link.workspaceId);
  const schedule = await repository.getSchedule(link.scheduleId);
  if (!schedule || schedule.feedSecret !== link.feedSecret) throw notFound();
  const now = ports.clock.now().getTime();
  const [overrides, members] = await Promise.all([
    repository.listOverrides(schedule.id),
    workspaceRepository(ports.table, link.workspaceId).listMembers(),
  ]);
  const names = new Map(members.map((m) => [m.id, memberName(m)]));
  return calendarFeed({
    scheduleId: schedule.id,
    scheduleName: schedule.name,
    shifts: finalShifts(schedule, asSpans(overrides), { start: now - FEED_PAST_MS, end: now + FEED_AHEAD_MS }),
    nameOf: (userId) => names.get(userId) ?? 'A former member',
    generatedAt: now,
  });
};
