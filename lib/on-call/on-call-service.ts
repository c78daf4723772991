import { BadRequestError, ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { MAX_SHIFT_MS, isAssignmentId, overlaps, type OnCallAssignment } from './on-call.ts';
import type { ReservedShift } from './on-call-repository.ts';
import { onCallRepository, type OnCallRepository } from './on-call-repository.ts';
import type { AssignMemberInput } from './schemas.ts';
import { zonedTimeToUtc } from '#lib/contract/zoned-time.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** A reservation this old without its assignment is what a crash between the two writes left behind. */
const LEFTOVER_AFTER_MS = 60_000;
const RESERVE_ATTEMPTS = 3;

const notFound = (): NotFoundError => new NotFoundError('On-call assignment not found');

/** Why an overlapping reservation blocks the new shift, or undefined if it is a crash leftover to drop. */
const blockingReason = async (
  onCall: OnCallRepository,
  shift: ReservedShift,
  now: Date,
): Promise<string | undefined> => {
  const existing = await onCall.findAssignment(shift.id);
  if (existing)
    return `overlaps assignment ${existing.id} on ${existing.date}, ${existing.startTime} to ${existing.endTime}`;
  if (now.getTime() - Date.parse(shift.reservedAt) >= LEFTOVER_AFTER_MS) return undefined;
  return `overlaps assignment ${shift.id}, which is being created right now`;
};

/**
 * Reserves the shift in the member's day unless it overlaps another shift of theirs (409). The day is
 * one item written with a `rev` condition, so of two overlapping requests at once only one wins.
 */
const reserveShift = async (onCall: OnCallRepository, assignment: OnCallAssignment, now: Date): Promise<void> => {
  for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt += 1) {
    const day = await onCall.readShiftDay(assignment.userId, assignment.date);
    const kept: ReservedShift[] = [];
    for (const shift of day.shifts) {
      if (!overlaps(shift, assignment)) {
        kept.push(shift);
        continue;
      }
      const reason = await blockingReason(onCall, shift, now);
      if (reason)
        throw new ConflictError('This member already has an overlapping on-call shift', [`startTime: ${reason}`]);
    }
    const reserved = {
      id: assignment.id,
      startsAt: assignment.startsAt,
      endsAt: assignment.endsAt,
      reservedAt: now.toISOString(),
    };
    if (
      await onCall.writeShiftDay(assignment.userId, assignment.date, {
        shifts: [...kept, reserved],
        rev: day.rev,
      })
    ) {
      return;
    }
  }
  throw new ConflictError('The shifts of this member changed during the request; try again');
};

/**
 * Puts a member of the caller's workspace on call. The date and times are read in the workspace's zone
 * and stored with the UTC instants they mean. A user who is not a member (of this workspace) is a 400,
 * like any other reference in a body to something that does not exist.
 */
export const assignMember = async (scope: Scope, input: AssignMemberInput): Promise<OnCallAssignment> => {
  const {
    ports: { table, clock, ids },
    workspaceId,
  } = scope;
  const member = await workspaceRepository(table, workspaceId).getMember(input.userId);
  if (!member) throw new BadRequestError('Unknown member', [`userId: no member ${input.userId} in this workspace`]);
  const timezone = await workspaceTimezone(scope);
  const startsAt = zonedTimeToUtc(input.date, input.startTime, timezone).toISOString();
  const endsAt = zonedTimeToUtc(input.date, input.endTime, timezone).toISOString();
  if (endsAt <= startsAt) {
    throw new BadRequestError('The shift has no length in the workspace time zone', [
      `endTime: ${input.startTime} to ${input.endTime} on ${input.date} is no time at all in ${timezone} (clocks jump forward)`,
    ]);
  }
  const now = clock.now();
  const assignment: OnCallAssignment = {
    id: ids.sortable(),
    userId: member.id,
    email: member.email,
    date: input.date,
    startTime: input.startTime,
    endTime: input.endTime,
    timezone,
    startsAt,
    endsAt,
    createdAt: now.toISOString(),
  };
  const onCall = onCallRepository(table, workspaceId);
  await reserveShift(onCall, assignment, now);
  await onCall.insertAssignment(assignment);
  return assignment;
};

export const getAssignment = async (
  { ports: { table }, workspaceId }: Scope,
  assignmentId: string,
): Promise<OnCallAssignment> => {
  const assignment = isAssignmentId(assignmentId)
    ? await onCallRepository(table, workspaceId).findAssignment(assignmentId)
    : undefined;
  if (!assignment) throw notFound();
  return assignment;
};

/**
 * Latest first: by start instant, which within one time zone is date descending, then start time
 * descending.
 */
export const listAssignments = async ({ ports: { table }, workspaceId }: Scope): Promise<OnCallAssignment[]> =>
  onCallRepository(table, workspaceId).queryAssignments();

/**
 * The assignments covering an instant (start inclusive, end exclusive), earliest start first: whom
 * notifications page at that moment.
 */
export const whoIsOnCall = async (scope: Scope, instant: Date): Promise<OnCallAssignment[]> =>
  assignmentsOverlapping(scope, { start: instant.getTime(), end: instant.getTime() });

/**
 * The assignments overlapping a window of instants (milliseconds; an instant when start equals end), earliest
 * start first: the default schedule's overrides (docs/on-call.md, "The default schedule").
 */
export const assignmentsOverlapping = async (
  { ports: { table }, workspaceId }: Scope,
  window: { start: number; end: number },
): Promise<OnCallAssignment[]> =>
  onCallRepository(table, workspaceId).assignmentsOverlapping({
    from: new Date(window.start).toISOString(),
    to: new Date(window.end).toISOString(),
    earliestStart: new Date(window.start - MAX_SHIFT_MS).toISOString(),
  });
