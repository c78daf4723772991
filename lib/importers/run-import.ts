import { countOf } from '#lib/contract/count-words.ts';
import { escalationPolicyBody } from './escalation-policies.ts';
import type { ImportPolicy, ImportSchedule, ImportSet } from './import-set.ts';
import { type ApiRequest, expectStatus, PATHS, readWorkspace, type Workspace } from './workspace-api.ts';

export interface ImportOptions {
  /** Create what is missing; without it, only say what would be created (`--plan`). */
  apply: boolean;
  /** Invitation ids by the address an earlier run invited: not invited again (the API lists no pending invitations). */
  invited: ReadonlyMap<string, string>;
}

interface ImportCounts {
  membersMatched: number;
  invited: number;
  services: number;
  schedules: number;
  policies: number;
  /** Schedules and policies left for a later run: someone they name has not joined yet. */
  waiting: number;
}

export interface ImportReport {
  /** The summary, a line each, for a person to read. */
  lines: string[];
  /** What this run created, or would create with `--plan`. */
  created: ImportCounts;
  /** Invitation ids by the address this run invited. */
  newlyInvited: Map<string, string>;
}

const TOOL_NAMES = { pagerduty: 'PagerDuty', opsgenie: 'Opsgenie' } as const;

/** Everyone a schedule puts on call, in its layers and overrides. */
const peopleOf = (schedule: ImportSchedule): string[] => [
  ...new Set([...schedule.layers.flatMap((layer) => layer.members), ...schedule.overrides.map((o) => o.email)]),
];

/** The people a policy pages directly. */
const membersOf = (policy: ImportPolicy): string[] => [
  ...new Set(policy.levels.flatMap((level) => level.targets.flatMap((t) => (t.type === 'member' ? [t.email] : [])))),
];

const waitingLine = (name: string, missing: readonly string[]): string =>
  `  "${name}" waits for ${missing.join(', ')} (run --apply again once they have joined)`;

/** Who of `people` holds turns as an invitation until they accept it (the schedules' "People not joined yet"). */
const pendingNote = (people: readonly string[], workspace: Workspace): string => {
  const pending = people.filter((email) => !workspace.members.has(email));
  return pending.length > 0 ? `; invited, on call once they accept: ${pending.join(', ')}` : '';
};

/**
 * Brings an export's users, services, schedules and escalation policies into the workspace through its API
 * (docs/migrating.md, "Importing"). What exists by e-mail or name is left as it is, so running it twice creates
 * nothing new. People who are not members are invited first, and schedules and policies name them by their
 * invitation, which becomes their member id when they accept (lib/schedules/invited-turns.ts), so each is created
 * whole on the first run. Without `apply` it reads the workspace and writes nothing.
 */
export const runImport = async (set: ImportSet, request: ApiRequest, options: ImportOptions): Promise<ImportReport> => {
  const { apply } = options;
  const workspace: Workspace = await readWorkspace(request);
  const created: ImportCounts = { membersMatched: 0, invited: 0, services: 0, schedules: 0, policies: 0, waiting: 0 };
  const newlyInvited = new Map<string, string>();
  /** Whom a schedule or policy can name, by e-mail: members, then invitations (placeholders in a plan). */
  const assignees = new Map([...options.invited, ...workspace.members]);
  const did = (verb: string, done: string): string => (apply ? done : `would ${verb}`);
  const lines = [`${TOOL_NAMES[set.tool]} import (${apply ? 'apply' : 'plan'})`, '', 'Users:'];

  for (const user of set.users) {
    if (workspace.members.has(user.email)) {
      created.membersMatched += 1;
      lines.push(`  matched ${user.email} (already a member)`);
    } else if (options.invited.has(user.email)) {
      lines.push(`  ${user.email} was invited by an earlier run; not invited again`);
    } else {
      if (apply) {
        const reply = await request('POST', PATHS.invite, {
          email: user.email,
          role: user.role,
          accessPermissions: [],
        });
        const { inviteId } = expectStatus<{ inviteId: string }>(reply, 201, `inviting ${user.email}`);
        newlyInvited.set(user.email, inviteId);
        assignees.set(user.email, inviteId);
      } else {
        assignees.set(user.email, `(invitation) ${user.email}`);
      }
      created.invited += 1;
      lines.push(`  ${did('invite', 'invited')} ${user.email} as ${user.role} (${user.name})`);
    }
  }

  lines.push('', 'Services:');
  for (const service of set.services) {
    if (workspace.services.has(service.name)) {
      lines.push(`  "${service.name}" exists`);
      continue;
    }
    if (apply) expectStatus(await request('POST', PATHS.services, service), 201, `creating service "${service.name}"`);
    created.services += 1;
    lines.push(`  ${did('create', 'created')} "${service.name}"${service.team ? ` (team ${service.team})` : ''}`);
  }

  lines.push('', 'Schedules:');
  for (const schedule of set.schedules) {
    if (workspace.schedules.has(schedule.name)) {
      lines.push(`  "${schedule.name}" exists`);
      continue;
    }
    const missing = peopleOf(schedule).filter((email) => !assignees.has(email));
    if (missing.length > 0) {
      created.waiting += 1;
      lines.push(waitingLine(schedule.name, missing));
      continue;
    }
    if (schedule.layers.length === 0) {
      lines.push(`  "${schedule.name}" NOT IMPORTED: none of its layers can be mapped (below)`);
      continue;
    }
    const idOf = (email: string): string => assignees.get(email) ?? email;
    const layers = schedule.layers.map((layer) => ({ ...layer, members: layer.members.map(idOf) }));
    if (apply) {
      const made = expectStatus<{ id: string }>(
        await request('POST', PATHS.schedules, { name: schedule.name, timezone: schedule.timezone, layers }),
        201,
        `creating schedule "${schedule.name}"`,
      );
      workspace.schedules.set(schedule.name, made.id);
      for (const { email, start, end } of schedule.overrides) {
        const reply = await request('POST', `${PATHS.schedules}/${made.id}/overrides`, {
          userId: idOf(email),
          start,
          end,
        });
        expectStatus(reply, 201, `adding an override to "${schedule.name}"`);
      }
    } else {
      workspace.schedules.set(schedule.name, `(new) ${schedule.name}`);
    }
    created.schedules += 1;
    lines.push(
      `  ${did('create', 'created')} "${schedule.name}" (${countOf(layers.length, 'layer')}, ${countOf(schedule.overrides.length, 'override')}${pendingNote(peopleOf(schedule), workspace)})`,
    );
  }

  lines.push('', 'Escalation policies:');
  if (!workspace.policies) {
    const names = set.policies.map((p) => `"${p.name}"`).join(', ');
    lines.push(
      `  NOT IMPORTED: this service has no ${PATHS.policies} routes (issue 43); ${countOf(set.policies.length, 'policy', 'policies')} left${names ? `: ${names}` : ''}`,
    );
  } else {
    for (const policy of set.policies) {
      if (workspace.policies.has(policy.name)) {
        lines.push(`  "${policy.name}" exists`);
        continue;
      }
      const mapped = escalationPolicyBody(policy, { members: assignees, schedules: workspace.schedules });
      if ('missing' in mapped) {
        created.waiting += 1;
        lines.push(waitingLine(policy.name, mapped.missing));
        continue;
      }
      if (apply)
        expectStatus(await request('POST', PATHS.policies, mapped.body), 201, `creating policy "${policy.name}"`);
      created.policies += 1;
      lines.push(
        `  ${did('create', 'created')} "${policy.name}" (${countOf(mapped.body.levels.length, 'level')}, repeat ${policy.repeat}${pendingNote(membersOf(policy), workspace)})`,
      );
    }
  }

  if (set.unmapped.length > 0) lines.push('', 'Cannot be mapped:', ...set.unmapped.map((line) => `  - ${line}`));
  const { invited, services, schedules, policies, waiting } = created;
  lines.push(
    '',
    `${apply ? 'Done' : 'Plan'}: ${countOf(invited, 'invitation')}, ${countOf(services, 'service')}, ${countOf(schedules, 'schedule')}, ${countOf(policies, 'escalation policy', 'escalation policies')}${waiting > 0 ? `; ${waiting} waiting for people to join` : ''}.`,
  );
  return { lines, created, newlyInvited };
};
