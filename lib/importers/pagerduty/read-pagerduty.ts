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
import {
  escalationPoliciesFile,
  overridesFile,
  type PagerDutyRestriction,
  schedulesFile,
  servicesFile,
  usersFile,
} from './rest-shapes.ts';

/** PagerDuty's base roles in ours: who administers, who responds, who only looks. */
const ROLE_OF: Readonly<Record<string, Role>> = {
  owner: 'ADMIN',
  admin: 'ADMIN',
  manager: 'ENGINEER',
  user: 'ENGINEER',
  limited_user: 'ENGINEER',
  responder: 'ENGINEER',
  observer: 'VIEWER',
  read_only_user: 'VIEWER',
  read_only_limited_user: 'VIEWER',
  restricted_access: 'VIEWER',
};

const DAY_S = 86_400;

const minutesOf = (timeOfDay: string): number => {
  const [hours = 0, minutes = 0] = timeOfDay.split(':').map(Number);
  return hours * 60 + minutes;
};

/**
 * PagerDuty's restrictions as our one window per layer: one daily window, or weekly windows that share a time of
 * day (the days listed). Anything else (windows that differ by day, a window of a day or more) is a reason.
 */
const restrictionsOf = (restrictions: readonly PagerDutyRestriction[]): ImportRestrictions | string | undefined => {
  if (restrictions.length === 0) return undefined;
  const [first] = restrictions;
  if (!first) return undefined;
  const same = restrictions.every(
    (r) =>
      r.type === first.type &&
      r.start_time_of_day === first.start_time_of_day &&
      r.duration_seconds === first.duration_seconds,
  );
  if (!same || first.duration_seconds >= DAY_S) return 'restrictions whose windows differ by day or last a day or more';
  if (first.type === 'daily_restriction' && restrictions.length > 1) return 'several daily restrictions';
  const start = minutesOf(first.start_time_of_day);
  return {
    daysOfWeek:
      first.type === 'daily_restriction'
        ? [1, 2, 3, 4, 5, 6, 7]
        : [...new Set(restrictions.map((r) => r.start_day_of_week ?? 1))].sort(),
    startTime: clockTime(start),
    endTime: clockTime(start + Math.round(first.duration_seconds / 60)),
  };
};

/** Reads a PagerDuty export folder (docs/migrating.md, "Importing": the files and what maps to what). */
export const readPagerDuty = (files: ExportFiles): ImportSet => {
  const unmapped: string[] = [];
  const users = readExport(files, 'users.json', usersFile)?.users ?? [];
  const emailOf = new Map(users.map((user) => [user.id, user.email.toLowerCase()]));
  const schedules = readExport(files, 'schedules.json', schedulesFile)?.schedules ?? [];
  const scheduleName = new Map(schedules.map((schedule) => [schedule.id, schedule.name]));

  const importedSchedules = schedules.map((schedule) => {
    const layers = schedule.schedule_layers.flatMap((layer, index): ImportLayer[] => {
      const label = `schedule "${schedule.name}" layer ${layer.name ?? index + 1}`;
      if (layer.end) {
        unmapped.push(`${label}: ended at ${layer.end}; only current layers are imported`);
        return [];
      }
      return importLayer(unmapped, {
        label,
        // The virtual start anchors the turn order, as our layer start does (docs/decisions.md, "The first turn").
        start: layer.rotation_virtual_start,
        timezone: schedule.time_zone,
        rotation: rotationOf(layer.rotation_turn_length_seconds),
        rotationProblem: `a turn of ${layer.rotation_turn_length_seconds} s is not whole hours`,
        restrictions: restrictionsOf(layer.restrictions ?? []),
        members: () => layer.users.flatMap(({ user }) => emailOf.get(user.id) ?? []),
        noMembers: 'none of its users is in users.json',
      });
    });
    return importSchedule(
      files,
      { id: schedule.id, name: schedule.name, timezone: schedule.time_zone, layers },
      {
        file: overridesFile,
        read: ({ overrides }) => overrides.map(({ start, end, user }) => ({ email: emailOf.get(user.id), start, end })),
      },
    );
  });

  const policies = (
    readExport(files, 'escalation_policies.json', escalationPoliciesFile)?.escalation_policies ?? []
  ).map((policy): ImportPolicy => {
    const rules = policy.escalation_rules;
    const repeat = importRepeat(unmapped, `policy "${policy.name}"`, policy.num_loops ?? 0, 'loops');
    const levels = rules.map((rule, index) => ({
      // PagerDuty's delay is the wait before the next rule; ours is the wait before this level (level 1: the
      // wait after the last level before the next pass).
      delayMinutes: importDelay((index === 0 ? rules.at(-1) : rules[index - 1])?.escalation_delay_in_minutes ?? 0),
      targets: rule.targets.flatMap((target): ImportTarget[] => {
        const email = target.type.startsWith('user') ? emailOf.get(target.id) : undefined;
        if (email) return [{ type: 'member', email }];
        const schedule = target.type.startsWith('schedule') ? scheduleName.get(target.id) : undefined;
        if (schedule) return [{ type: 'schedule', schedule }];
        unmapped.push(
          `policy "${policy.name}": target ${target.type} ${target.summary ?? target.id} is not in the export`,
        );
        return [];
      }),
    }));
    return { name: policy.name, levels, repeat };
  });

  return {
    tool: 'pagerduty',
    users: users.map((user) => ({
      email: user.email.toLowerCase(),
      name: user.name,
      role: ROLE_OF[user.role ?? 'user'] ?? 'ENGINEER',
    })),
    services: (readExport(files, 'services.json', servicesFile)?.services ?? []).map(({ name, description, teams }) =>
      importService({ name, description, team: teams?.[0]?.summary }),
    ),
    schedules: importedSchedules,
    policies,
    unmapped,
  };
};
