import type { Role } from '#lib/identity/caller.ts';
import type * as z from 'zod/mini';
import { localDateTime } from '#lib/contract/zoned-time.ts';
import { MAX_DELAY_MINUTES, MAX_REPEAT } from '#lib/escalation-policies/schemas.ts';
import { type ExportFiles, readExport } from './export-files.ts';

/**
 * What an importer read from a paging tool's export, in our terms but still naming people by e-mail and schedules
 * by name (ids exist only once the workspace has them). docs/migrating.md, "Importing".
 */
interface ImportUser {
  email: string;
  name: string;
  role: Role;
}

interface ImportService {
  name: string;
  description?: string;
  /** A team slug (the service map's `team`). */
  team?: string;
}

export interface ImportRestrictions {
  daysOfWeek: number[];
  startTime: string;
  endTime: string;
}

export interface ImportLayer {
  start: string;
  rotationType: 'daily' | 'weekly' | 'custom';
  rotationHours?: number;
  handoffTime: string;
  /** E-mails, in turn order. */
  members: string[];
  restrictions?: ImportRestrictions;
}

interface ImportOverride {
  email: string;
  start: string;
  end: string;
}

export interface ImportSchedule {
  name: string;
  timezone: string;
  layers: ImportLayer[];
  overrides: ImportOverride[];
}

export type ImportTarget = { type: 'schedule'; schedule: string } | { type: 'member'; email: string };

interface ImportLevel {
  delayMinutes: number;
  targets: ImportTarget[];
}

export interface ImportPolicy {
  name: string;
  levels: ImportLevel[];
  repeat: number;
}

export type Tool = 'pagerduty' | 'opsgenie';

export interface ImportSet {
  tool: Tool;
  users: ImportUser[];
  services: ImportService[];
  schedules: ImportSchedule[];
  policies: ImportPolicy[];
  /** What the export holds that has no place here, one line each, saying why. */
  unmapped: string[];
}

/** A team's name as the service map's team slug. */
const teamSlug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');

/** A tool's service as the service map's, its team's name as a slug (none when the name has no letter or digit). */
export const importService = (service: { name: string; description?: string | null; team?: string }): ImportService => {
  const team = service.team && teamSlug(service.team);
  return {
    name: service.name,
    ...(service.description && { description: service.description }),
    ...(team && { team }),
  };
};

/** HH:MM of an instant on the wall clock of `timeZone`: a rotation's handoff time. */
const wallClockTime = (instant: string, timeZone: string): string =>
  localDateTime(new Date(instant), timeZone).slice(11, 16);

const HOUR_S = 3600;

/** A rotation of `seconds` per turn in our terms, or undefined when it is not whole hours. */
export const rotationOf = (seconds: number): Pick<ImportLayer, 'rotationType' | 'rotationHours'> | undefined => {
  if (seconds === 24 * HOUR_S) return { rotationType: 'daily' };
  if (seconds === 7 * 24 * HOUR_S) return { rotationType: 'weekly' };
  if (seconds <= 0 || seconds % HOUR_S !== 0 || seconds / HOUR_S > 8760) return undefined;
  return { rotationType: 'custom', rotationHours: seconds / HOUR_S };
};

/** What a tool's rotation says in our terms, before it is a layer. */
interface LayerParts {
  /** How `unmapped` names the rotation: `schedule "Checkout" layer 1`. */
  label: string;
  /** The instant that anchors the turn order; its wall-clock time in `timezone` is the handoff. */
  start: string;
  timezone: string;
  /** The turn in our terms; undefined when it has none, and `rotationProblem` says why. */
  rotation: Pick<ImportLayer, 'rotationType' | 'rotationHours'> | undefined;
  rotationProblem: string;
  /** The hours it is on call in, none (every hour), or what it holds that has no equivalent here. */
  restrictions: ImportRestrictions | string | undefined;
  /** Its people in turn order, asked for only when the rotation can be imported; `noMembers` says why none. */
  members: () => string[];
  noMembers: string;
}

/** The layer, or none with each reason in `unmapped`: a turn or restrictions we have no equivalent of, or nobody on it. */
export const importLayer = (unmapped: string[], parts: LayerParts): ImportLayer[] => {
  const { label, rotation, restrictions } = parts;
  if (!rotation) unmapped.push(`${label}: ${parts.rotationProblem}`);
  if (typeof restrictions === 'string') unmapped.push(`${label}: ${restrictions} have no equivalent here`);
  if (!rotation || typeof restrictions === 'string') return [];
  const members = parts.members();
  if (members.length === 0) {
    unmapped.push(`${label}: ${parts.noMembers}, left out`);
    return [];
  }
  return [
    {
      start: new Date(parts.start).toISOString(),
      ...rotation,
      handoffTime: wallClockTime(parts.start, parts.timezone),
      members,
      ...(restrictions && { restrictions }),
    },
  ];
};

/** "HH:MM" of minutes after midnight, wrapping at 24 hours. */
export const clockTime = (minutes: number): string => {
  const wrapped = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
};

/** An override as a tool's export holds it: its person's e-mail here (undefined when it has none) and its times. */
interface ToolOverride {
  email: string | undefined;
  start: string;
  end: string;
}

/**
 * A schedule with its layers and its overrides, which both tools' exports keep in `overrides/<schedule id>.json`
 * (`read` takes them out of the tool's file): each with an e-mail here, its times as ISO instants.
 */
export const importSchedule = <File>(
  files: ExportFiles,
  schedule: { id: string; name: string; timezone: string; layers: ImportLayer[] },
  overrides: { file: z.ZodMiniType<File>; read: (file: File) => ToolOverride[] },
): ImportSchedule => {
  const file = readExport(files, `overrides/${schedule.id}.json`, overrides.file);
  return {
    name: schedule.name,
    timezone: schedule.timezone,
    layers: schedule.layers,
    overrides: (file === undefined ? [] : overrides.read(file)).flatMap(({ email, start, end }) =>
      email ? [{ email, start: new Date(start).toISOString(), end: new Date(end).toISOString() }] : [],
    ),
  };
};

/** A level's wait within what a policy here allows. */
export const importDelay = (minutes: number): number => Math.min(MAX_DELAY_MINUTES, minutes);

/** How often a policy passes through its levels again, within what a policy here allows; a cut is a reason. */
export const importRepeat = (unmapped: string[], policy: string, count: number, what: string): number => {
  if (count > MAX_REPEAT) unmapped.push(`${policy}: ${count} ${what} cut to ${MAX_REPEAT}`);
  return Math.min(count, MAX_REPEAT);
};
