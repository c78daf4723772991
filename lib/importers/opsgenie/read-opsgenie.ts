import type { Role } from '#lib/identity/caller.ts';
import { type ExportFiles, readExport } from '../export-files.ts';
import type { ImportLayer, ImportPolicy, ImportRestrictions, ImportSet, ImportTarget } from '../import-set.ts';
import {
  clockTime,
  importDelay,
  importLayer,
  importRepeat,
  importSchedule,
  importService,
  rotationOf,
} from '../import-set.ts';
import { escalationsFile, overridesFile, schedulesFile, servicesFile, teamsFile, usersFile } from './rest-shapes.ts';
import type * as z from 'zod/mini';
import type { weekdayWindow } from './rest-shapes.ts';

const ROLE_OF: Readonly<Record<string, Role>> = {
  Owner: 'ADMIN',
  Admin: 'ADMIN',
  User: 'ENGINEER',
  Observer: 'VIEWER',
  Stakeholder: 'VIEWER',
};
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const HOURS_PER = { hourly: 1, daily: 24, weekly: 168 } as const;

type WeekdayWindow = z.output<typeof weekdayWindow>;

/**
 * Opsgenie's time restriction as our one window per layer: a time of day every day, or weekday windows that each
 * start and end on the same day at the same times (the days listed). Anything else is a reason.
 */
const restrictionsOf = (
  restriction:
    | {
        type: string;
        restriction?: { startHour: number; startMin: number; endHour: number; endMin: number };
        restrictions?: WeekdayWindow[];
      }
    | null
    | undefined,
): ImportRestrictions | string | undefined => {
  if (!restriction) return undefined;
  const window = restriction.type === 'time-of-day' ? restriction.restriction : restriction.restrictions?.[0];
  if (!window) return undefined;
  const startTime = clockTime(window.startHour * 60 + window.startMin);
  const endTime = clockTime(window.endHour * 60 + window.endMin);
  if (restriction.type === 'time-of-day') return { daysOfWeek: [1, 2, 3, 4, 5, 6, 7], startTime, endTime };
  const windows = restriction.restrictions ?? [];
  const sameEachDay = windows.every(
    (w) =>
      w.startDay === w.endDay &&
      w.startHour === window.startHour &&
      w.startMin === window.startMin &&
      w.endHour === window.endHour &&
      w.endMin === window.endMin,
  );
  if (!sameEachDay) return 'weekday windows that span days or differ by day';
  return {
    daysOfWeek: [...new Set(windows.map((w) => DAYS.indexOf(w.startDay.toLowerCase()) + 1))].sort(),
    startTime,
    endTime,
  };
};

/** Reads an Opsgenie export folder (docs/migrating.md, "Importing": the files and what maps to what). */
export const readOpsgenie = (files: ExportFiles): ImportSet => {
  const unmapped: string[] = [];
  const users = readExport(files, 'users.json', usersFile)?.data ?? [];
  const teams = readExport(files, 'teams.json', teamsFile)?.data ?? [];
  const teamName = new Map(teams.map((team) => [team.id, team.name]));
  const emailOfParticipant = (participant: { type: string; username?: string; id?: string }, where: string) => {
    if (participant.type === 'user' && participant.username) return [participant.username.toLowerCase()];
    if (participant.type !== 'none')
      unmapped.push(`${where}: a participant of type ${participant.type} has no equivalent here`);
    return [];
  };

  const schedules = (readExport(files, 'schedules.json', schedulesFile)?.data ?? []).map((schedule) => {
    const layers = (schedule.rotations ?? []).flatMap((rotation, index): ImportLayer[] => {
      const label = `schedule "${schedule.name}" rotation ${rotation.name ?? index + 1}`;
      if (rotation.endDate) {
        unmapped.push(`${label}: ends at ${rotation.endDate}; layers here do not end`);
        return [];
      }
      const hours = HOURS_PER[rotation.type] * (rotation.length ?? 1);
      return importLayer(unmapped, {
        label,
        start: rotation.startDate,
        timezone: schedule.timezone,
        rotation: rotationOf(hours * 3600),
        rotationProblem: `a turn of ${hours} hours is too long`,
        restrictions: restrictionsOf(rotation.timeRestriction),
        members: () => rotation.participants.flatMap((participant) => emailOfParticipant(participant, label)),
        noMembers: 'no person to put on call',
      });
    });
    return importSchedule(
      files,
      { ...schedule, layers },
      {
        file: overridesFile,
        read: ({ data }) =>
          data.map(({ user, startDate, endDate }) => ({
            email: emailOfParticipant(user, `schedule "${schedule.name}" override`)[0],
            start: startDate,
            end: endDate,
          })),
      },
    );
  });

  const policies = (readExport(files, 'escalations.json', escalationsFile)?.data ?? []).map(
    (escalation): ImportPolicy => {
      // Opsgenie's delays count from the alert's creation; ours from the previous level. Rules of one delay are one level.
      const byDelay = new Map<number, ImportTarget[]>();
      for (const rule of escalation.rules) {
        const minutes = rule.delay.timeUnit === 'hours' ? rule.delay.timeAmount * 60 : rule.delay.timeAmount;
        const { recipient } = rule;
        const where = `escalation "${escalation.name}"`;
        if (rule.notifyType === 'next' || rule.notifyType === 'previous')
          unmapped.push(`${where}: the ${rule.notifyType} on-call person is taken as the current one`);
        if (rule.condition === 'if-not-closed')
          unmapped.push(`${where}: "if not closed" is taken as "if not acknowledged"`);
        const target: ImportTarget[] =
          recipient.type === 'user' && recipient.username
            ? [{ type: 'member', email: recipient.username.toLowerCase() }]
            : recipient.type === 'schedule' && recipient.name
              ? [{ type: 'schedule', schedule: recipient.name }]
              : recipient.type === 'team' && recipient.id
                ? (teams.find((team) => team.id === recipient.id)?.members ?? []).map(({ user }) => ({
                    type: 'member' as const,
                    email: user.username.toLowerCase(),
                  }))
                : [];
        if (target.length === 0)
          unmapped.push(`${where}: a recipient of type ${recipient.type} has no equivalent here`);
        if (recipient.type === 'team')
          unmapped.push(`${where}: team ${recipient.name ?? recipient.id} is paged as its members`);
        byDelay.set(minutes, [...(byDelay.get(minutes) ?? []), ...target]);
      }
      const delays = [...byDelay.keys()].sort((a, b) => a - b);
      return {
        name: escalation.name,
        levels: delays.map((delay, index) => ({
          delayMinutes: importDelay(
            index === 0 ? (escalation.repeat?.waitInterval ?? 0) : delay - (delays[index - 1] ?? 0),
          ),
          targets: byDelay.get(delay) ?? [],
        })),
        repeat: importRepeat(unmapped, `escalation "${escalation.name}"`, escalation.repeat?.count ?? 0, 'repeats'),
      };
    },
  );

  return {
    tool: 'opsgenie',
    users: users.map((user) => ({
      email: user.username.toLowerCase(),
      name: user.fullName,
      role: ROLE_OF[user.role?.name ?? 'User'] ?? 'ENGINEER',
    })),
    services: (readExport(files, 'services.json', servicesFile)?.data ?? []).map(({ name, description, teamId }) =>
      importService({ name, description, team: teamId && teamName.get(teamId) }),
    ),
    schedules,
    policies,
    unmapped,
  };
};
