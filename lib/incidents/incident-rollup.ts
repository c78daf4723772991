import { hourOf, metricHourRepository } from '#lib/rollups/metric-hour-repository.ts';
import { counterDelta } from '#lib/store/counters.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Incident, IncidentWrite } from './incident.ts';

/**
 * What incidents add to the hourly METRIC_HOUR rollups (docs/dashboard.md has what each figure means):
 *
 * - in the UTC hour of its creation, the incident as one of that hour's cohort: `incidentsCreated`,
 *   `priority#<P>`, `source#<sourceKey>`, and while resolved `cohortResolved`, `cohortResolveMs`,
 *   `resolver#<actorKey>`, `resolverMs#<actorKey>`; with a first signal `detectedCount`, `detectMs`;
 *   governed by an SLA policy `slaGoverned`, and once either target is BREACHED `slaBreached`;
 * - in the UTC hour of its resolution, `incidentsResolved`, for the trend.
 *
 * Like the list counters, a write adds the difference between the incident's contribution before and
 * after it (both from the write itself, `ALL_OLD`), so a priority change moves the incident between
 * priorities of its hour, a reopen takes its resolution back and a delete takes it out altogether.
 * Durations are integer milliseconds, so sums of ADDs stay exact.
 */
type HourCounts = Map<string, Record<string, number>>;

const RESOLVER_PREFIX = 'resolver#';
const RESOLVER_MS_PREFIX = 'resolverMs#';

/** The rollup attribute names the dashboard reads. */
export const ROLLUP = {
  created: 'incidentsCreated',
  resolved: 'incidentsResolved',
  cohortResolved: 'cohortResolved',
  cohortResolveMs: 'cohortResolveMs',
  detected: 'detectedCount',
  detectMs: 'detectMs',
  slaGoverned: 'slaGoverned',
  slaBreached: 'slaBreached',
  priorityPrefix: 'priority#',
  sourcePrefix: 'source#',
  resolverPrefix: RESOLVER_PREFIX,
  resolverMsPrefix: RESOLVER_MS_PREFIX,
} as const;

/** How a resolver is named in rollup attributes: the actor (an e-mail for a person), normalised. */
export const resolverKey = (actor: string): string => filterKey(actor);

const msBetween = (from: string, to: string): number => Math.max(0, Date.parse(to) - Date.parse(from));

const add = (hours: HourCounts, hour: string, counts: Record<string, number>): void => {
  const current = hours.get(hour) ?? {};
  for (const [name, value] of Object.entries(counts)) current[name] = (current[name] ?? 0) + value;
  hours.set(hour, current);
};

const contribution = (incident: Incident | undefined): HourCounts => {
  const hours: HourCounts = new Map();
  if (!incident) return hours;
  const { createdAt, resolvedAt, resolvedBy, firstSignalAt } = incident;
  const created = hourOf(createdAt);
  add(hours, created, {
    [ROLLUP.created]: 1,
    [`${ROLLUP.priorityPrefix}${incident.priority}`]: 1,
    ...(incident.source !== undefined && { [`${ROLLUP.sourcePrefix}${filterKey(incident.source)}`]: 1 }),
    ...(firstSignalAt && { [ROLLUP.detected]: 1, [ROLLUP.detectMs]: msBetween(firstSignalAt, createdAt) }),
    ...(incident.slaPolicyId && { [ROLLUP.slaGoverned]: 1 }),
    ...((incident.slaResponse === 'BREACHED' || incident.slaResolve === 'BREACHED') && { [ROLLUP.slaBreached]: 1 }),
  });
  if (resolvedAt) {
    const took = msBetween(createdAt, resolvedAt);
    add(hours, created, {
      [ROLLUP.cohortResolved]: 1,
      [ROLLUP.cohortResolveMs]: took,
      ...(resolvedBy && {
        [`${RESOLVER_PREFIX}${resolverKey(resolvedBy)}`]: 1,
        [`${RESOLVER_MS_PREFIX}${resolverKey(resolvedBy)}`]: took,
      }),
    });
    add(hours, hourOf(resolvedAt), { [ROLLUP.resolved]: 1 });
  }
  return hours;
};

/** The change to each hour's rollup when an incident goes from `before` to `after` (undefined: none). */
const rollupDelta = (before: Incident | undefined, after: Incident | undefined): HourCounts => {
  const old = contribution(before);
  const now = contribution(after);
  const delta: HourCounts = new Map();
  for (const hour of new Set([...old.keys(), ...now.keys()])) {
    const change = counterDelta(old.get(hour) ?? {}, now.get(hour) ?? {});
    if (Object.keys(change).length > 0) delta.set(hour, change);
  }
  return delta;
};

/**
 * One ADD per hour the write changed (usually one; two when a resolution falls in another hour than the
 * creation), issued after the incident's own write succeeded: a crash in between leaves the rollup off
 * by that one incident.
 */
export const addToIncidentRollups = ({ ports, workspaceId }: Scope, { before, after }: IncidentWrite): Promise<void> =>
  metricHourRepository(ports.table, workspaceId).addToHours(rollupDelta(before, after));
