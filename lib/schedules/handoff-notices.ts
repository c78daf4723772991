import { weekdayClockInWords } from '#lib/contract/time-words.ts';
import { mailBodyLine, mailSubject } from '#lib/escaping/mail.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { finalShifts, type FinalShift } from '#lib/on-call/final-shifts.ts';
import type { MailMessage } from '#lib/ports/mail/mail.ts';
import { memberName } from '#lib/workspaces/member-name.ts';
import type { Member } from '#lib/workspaces/workspace.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { type Handoff, handoffRepository } from './handoff-repository.ts';
import { asSpans } from './on-call-now.ts';
import type { Schedule } from './schedule.ts';
import { scheduleRepository } from './schedule-repository.ts';

/**
 * How late a sweep may be and still tell a member their shift started (docs/on-call.md): a stretch that began
 * longer ago (the sweep stopped for a while, a schedule made with a shift under way) is not told.
 */
export const HANDOFF_LOOK_BACK_MS = 60 * 60_000;
/** How far ahead a stretch's end is looked for: past this the notice says no handoff is planned. */
const LOOK_AHEAD_MS = 8 * 7 * 86_400_000;

/** A member's time on call without a break: adjacent final shifts of one member, whatever put them there. */
interface Stretch {
  userId: string;
  start: number;
  end: number;
  /** What put them there when it began: an override, or their turn in a layer. */
  source: FinalShift['source'];
}

const stretchesOf = (shifts: FinalShift[]): Stretch[] => {
  const stretches: Stretch[] = [];
  for (const shift of shifts) {
    const last = stretches.at(-1);
    if (last && last.end === shift.start && last.userId === shift.userId) last.end = shift.end;
    else stretches.push({ ...shift });
  }
  return stretches;
};

/** The stretches that began within the look-back and still run at `now`, with the stretch after each. */
const startedStretches = (schedule: Schedule, overrides: ReturnType<typeof asSpans>, now: number) => {
  const window = { start: now - HANDOFF_LOOK_BACK_MS, end: now + LOOK_AHEAD_MS };
  const stretches = stretchesOf(finalShifts(schedule, overrides, window));
  // A stretch at the window's start was cut there: it began before the look-back.
  return stretches.flatMap((stretch, index) =>
    stretch.start > window.start && stretch.start <= now && stretch.end > now
      ? [{ stretch, next: stretches[index + 1], open: stretch.end >= window.end }]
      : [],
  );
};

const handoffMail = (
  appUrl: string,
  {
    schedule,
    member,
    next,
    end,
    open,
    override,
    timeZone,
  }: {
    schedule: Schedule;
    member: Member;
    next: string | undefined;
    end: string;
    open: boolean;
    override: boolean;
    timeZone: string;
  },
): MailMessage => {
  const until = open ? ', with no handoff planned in the next 8 weeks' : ` until ${weekdayClockInWords(end, timeZone)}`;
  return {
    to: member.email,
    subject: mailSubject(`You are on call for ${schedule.name}`),
    text: [
      `Hello ${mailBodyLine(memberName(member))},`,
      `You are on call for ${mailBodyLine(schedule.name)}${until}.`,
      override ? 'An override put you on call.' : 'It is your turn in the rotation.',
      ...(next ? [`Next on call: ${mailBodyLine(next)}.`] : []),
      `Who is on call, now and next: ${appUrl}/on-call`,
    ].join('\n\n'),
  };
};

/**
 * Tells each member whose stretch on call started since the last sweeps (docs/on-call.md): one e-mail, in the
 * workspace's zone, with the schedule's and the people's names. A conditional write keyed by schedule, start and
 * member claims each handoff first, so overlapping or late sweeps tell it once; a message the outbox refuses
 * gives its claim back for the next sweep, and a schedule the table refuses is left to it. Answers how many
 * members were told.
 */
export const tellHandoffs = async (scope: Scope, now: Date): Promise<number> => {
  const { ports, workspaceId } = scope;
  const schedules = scheduleRepository(ports.table, workspaceId);
  const list = await schedules.listSchedules();
  if (list.length === 0) return 0;
  const [members, timeZone] = await Promise.all([
    workspaceRepository(ports.table, workspaceId).listMembers(),
    workspaceTimezone(scope),
  ]);
  const byId = new Map(members.map((member) => [member.id, member]));
  const claims = handoffRepository(ports.table, workspaceId);
  let told = 0;
  const tellSchedule = async (schedule: Schedule): Promise<void> => {
    const overrides = asSpans(await schedules.listOverrides(schedule.id));
    for (const { stretch, next, open } of startedStretches(schedule, overrides, now.getTime())) {
      const member = byId.get(stretch.userId);
      // A member removed from the workspace but still in a rotation: nobody to tell, as nobody to page.
      if (!member) continue;
      const handoff: Handoff = {
        scheduleId: schedule.id,
        userId: member.id,
        start: new Date(stretch.start).toISOString(),
      };
      if (!(await claims.claimHandoff(handoff, now.toISOString()))) continue;
      const nextMember = next && byId.get(next.userId);
      const message = handoffMail(ports.mail.appUrl, {
        schedule,
        member,
        next: nextMember ? memberName(nextMember) : undefined,
        end: new Date(stretch.end).toISOString(),
        open,
        override: stretch.source.type === 'override',
        timeZone,
      });
      try {
        await ports.mail.send(message);
        told += 1;
      } catch (error) {
        log.error('handoff notice not queued; the next sweep tries again', { scheduleId: schedule.id, error });
        await claims.releaseHandoff(handoff);
      }
    }
  };
  for (const schedule of list) {
    // A table that refuses a read or the claim (capacity) leaves this schedule's notices to the next sweep; the
    // sweep's other work (the other schedules and workspaces, the heartbeats) goes on.
    await tellSchedule(schedule).catch((error: unknown) =>
      log.error('handoff notices not sent; the next sweep tries again', { scheduleId: schedule.id, error }),
    );
  }
  return told;
};
