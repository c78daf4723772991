import { get } from '../api.ts';
import type { Assignment, Member } from '../model.ts';
import { ErrorNote, useLoad } from '../ui.tsx';
import { SchedulesOnCall } from './schedules-on-call.tsx';
import { workspaceZone } from '../workspace.ts';
import { usePhoneNumbers } from '../phone-numbers.ts';
import { localDate, zonedTimeToUtc } from '#lib/contract/zoned-time.ts';

/** With the weekday (a shift may start or end on another day than today), on the workspace's clock. */
const time = (iso: string): string =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: workspaceZone(),
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

/** A shift is today's when it overlaps today on the workspace's clock; the API gives each its UTC instants. */
const overlapsToday = (shift: Assignment, now: Date): boolean => {
  const today = localDate(now, workspaceZone());
  const start = zonedTimeToUtc(today, '00:00', workspaceZone());
  const end = zonedTimeToUtc(today, '24:00', workspaceZone());
  const from = shift.startsAt ? new Date(shift.startsAt) : new Date(`${shift.date}T${shift.startTime}:00Z`);
  const to = shift.endsAt ? new Date(shift.endsAt) : new Date(`${shift.date}T00:00:00Z`);
  return from < end && to > start;
};

const isNow = (shift: Assignment, now: Date): boolean =>
  !!shift.startsAt && !!shift.endsAt && new Date(shift.startsAt) <= now && now < new Date(shift.endsAt);

/** Who is on call today, by shift, the one on call now marked. */
export const OnCallPage = () => {
  const loaded = useLoad(async () => {
    const [assignments, members] = await Promise.all([
      get<{ assignments: Assignment[] }>('/get-all-assign'),
      get<Member[]>('/business/get_members'),
    ]);
    return { assignments: assignments.data.assignments, members: members.data };
  }, 'on-call');
  const now = new Date();
  const today = (loaded.value?.assignments ?? [])
    .filter((shift) => overlapsToday(shift, now))
    .sort((a, b) => (a.startsAt ?? a.startTime).localeCompare(b.startsAt ?? b.startTime));
  const phones = usePhoneNumbers(today.map((shift) => shift.userId));
  const nameOf = (shift: Assignment): string => {
    const member = loaded.value?.members.find((one) => one.id === shift.userId);
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : (shift.email ?? shift.userId);
  };
  return (
    <main>
      <h1>On call today</h1>
      <ErrorNote error={loaded.error} />
      {loaded.value && today.length === 0 && <p>Nobody is on call today.</p>}
      <ul class="rows">
        {today.map((shift) => (
          <li key={shift.id} class={`row${isNow(shift, now) ? ' now' : ''}`}>
            <span class="row-title">
              {nameOf(shift)}
              {isNow(shift, now) && <span class="badge status-open">on call now</span>}
            </span>
            <span class="row-meta">
              <span>
                {shift.startsAt && shift.endsAt
                  ? `${time(shift.startsAt)}–${time(shift.endsAt)}`
                  : `${shift.startTime}–${shift.endTime}`}
              </span>
              {shift.email && <a href={`mailto:${shift.email}`}>{shift.email}</a>}
              {phones.has(shift.userId) && (
                <a class="call" href={`tel:${phones.get(shift.userId)}`}>
                  Call {phones.get(shift.userId)}
                </a>
              )}
            </span>
          </li>
        ))}
      </ul>
      <SchedulesOnCall />
    </main>
  );
};
