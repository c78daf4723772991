import { get } from '../api.ts';
import { workspaceZone } from '../workspace.ts';
import type { Member, Override, Schedule, Shift } from '../model.ts';
import { ErrorNote, useLoad } from '../ui.tsx';

/** How far ahead the page looks for the next handoff: the shifts route answers at most 31 days. */
const AHEAD_DAYS = 28;

/** A member's time on call without a break: adjacent shifts of one member, whatever put them there. */
interface Stretch {
  userId: string;
  start: string;
  end: string;
  byOverride: boolean;
}

const stretchesOf = (shifts: readonly Shift[]): Stretch[] => {
  const stretches: Stretch[] = [];
  for (const shift of shifts) {
    const last = stretches.at(-1);
    if (last && last.end === shift.start && last.userId === shift.userId) last.end = shift.end;
    else stretches.push({ ...shift, byOverride: shift.source.type === 'override' });
  }
  return stretches;
};

/** `Mon 14 Dec, 09:00` on the workspace's clock: the page says the zone once, under its heading. */
const clockIn = (timeZone: string) => {
  const format = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  return (iso: string): string => format.format(new Date(iso));
};

interface Roster {
  schedule: Schedule;
  now: Stretch | undefined;
  next: Stretch | undefined;
  /** Where the shifts were read up to: a stretch ending there has no handoff planned before it. */
  windowEnd: string;
  overrides: Override[];
}

const rosterOf = async (schedule: Schedule, from: Date): Promise<Roster> => {
  const to = new Date(from.getTime() + AHEAD_DAYS * 86_400_000).toISOString();
  const window = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to)}`;
  const [shifts, overrides] = await Promise.all([
    get<Shift[]>(`/schedules/${encodeURIComponent(schedule.id)}/shifts?${window}`),
    get<Override[]>(`/schedules/${encodeURIComponent(schedule.id)}/overrides`),
  ]);
  const stretches = stretchesOf(shifts.data);
  const first = stretches[0];
  const onNow = first && Date.parse(first.start) <= from.getTime() ? first : undefined;
  return {
    schedule,
    now: onNow,
    next: onNow ? stretches[1] : first,
    windowEnd: to,
    overrides: overrides.data
      .filter((override) => Date.parse(override.end) > from.getTime())
      .sort((a, b) => a.start.localeCompare(b.start)),
  };
};

/**
 * Who is on call now and next in each schedule (docs/on-call.md), by name, until when on the workspace's clock,
 * and the overrides still to come or under way.
 */
export const SchedulesOnCall = () => {
  const loaded = useLoad(async () => {
    const now = new Date();
    const [schedules, members] = await Promise.all([
      get<Schedule[]>('/schedules'),
      get<Member[]>('/business/get_members'),
    ]);
    const rosters = await Promise.all(schedules.data.map((schedule) => rosterOf(schedule, now)));
    return { rosters, members: members.data, timeZone: workspaceZone() };
  }, 'schedules-on-call');
  if (!loaded.value) return <ErrorNote error={loaded.error} />;
  const { rosters, members, timeZone } = loaded.value;
  const clock = clockIn(timeZone);
  const until = (stretch: Stretch, windowEnd: string): string =>
    Date.parse(stretch.end) >= Date.parse(windowEnd)
      ? `with no handoff in the next ${AHEAD_DAYS / 7} weeks`
      : `until ${clock(stretch.end)}`;
  const nameOf = (userId: string): string => {
    const member = members.find((one) => one.id === userId);
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : 'A former member';
  };
  return (
    <section class="schedules" aria-labelledby="schedules-heading">
      <h2 id="schedules-heading">Schedules</h2>
      <p class="note">Times in {timeZone}.</p>
      {rosters.length === 0 && <p>No schedules yet.</p>}
      {rosters.map(({ schedule, now, next, windowEnd, overrides }) => (
        <section key={schedule.id} class="card" aria-label={schedule.name}>
          <h3>{schedule.name}</h3>
          <ul class="rows">
            <li class={`row${now ? ' now' : ''}`}>
              {now ? (
                <span class="row-title">
                  {nameOf(now.userId)}
                  <span class="badge status-open">on call now</span>
                  {now.byOverride && <span class="badge">override</span>}
                </span>
              ) : (
                <span class="row-title">Nobody is on call now</span>
              )}
              {now && <span class="row-meta">{until(now, windowEnd)}</span>}
            </li>
            {next && (
              <li class="row">
                <span class="row-title">
                  {nameOf(next.userId)}
                  <span class="badge">next</span>
                  {next.byOverride && <span class="badge">override</span>}
                </span>
                <span class="row-meta">
                  from {clock(next.start)}, {until(next, windowEnd)}
                </span>
              </li>
            )}
          </ul>
          {overrides.length > 0 && (
            <>
              <h4>Overrides</h4>
              <ul class="rows">
                {overrides.map((override) => (
                  <li key={override.id} class="row">
                    <span class="row-title">{nameOf(override.userId)}</span>
                    <span class="row-meta">
                      {clock(override.start)} to {clock(override.end)}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      ))}
    </section>
  );
};
