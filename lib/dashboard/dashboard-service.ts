import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { ROLLUP, resolverKey } from '#lib/incidents/incident-rollup.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { hourOf, metricHourRepository, type HourRollup } from '#lib/rollups/metric-hour-repository.ts';
import { signalCounterRepository } from '#lib/signals/signal-counter-repository.ts';
import { memberName } from '#lib/workspaces/member-name.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { resolveWindow } from './dashboard-window.ts';
import type {
  DashboardAnalytics,
  DashboardAnalyticsInput,
  DashboardMetrics,
  DashboardMetricsInput,
} from './schemas.ts';
import { bucketOfHour, hoursBetween } from './zoned-buckets.ts';

/** How many sources `topIncidentSources` names. */
const TOP_SOURCES = 10;

/** The sum of one attribute over the hours read. */
const total = (rollups: readonly HourRollup[], name: string): number =>
  rollups.reduce((sum, { counts }) => sum + Math.max(0, counts[name] ?? 0), 0);

/** The sums of every attribute starting with `prefix`, by the rest of its name; zero sums left out. */
const byPrefix = (rollups: readonly HourRollup[], prefix: string): Map<string, number> => {
  const sums = new Map<string, number>();
  for (const { counts } of rollups) {
    for (const [name, value] of Object.entries(counts)) {
      if (name.startsWith(prefix))
        sums.set(name.slice(prefix.length), (sums.get(name.slice(prefix.length)) ?? 0) + value);
    }
  }
  return new Map([...sums].filter(([, sum]) => sum > 0));
};

/** A mean of milliseconds in whole seconds; null without a sample. */
const meanSeconds = (sumMs: number, count: number): number | null =>
  count > 0 ? Math.round(Math.max(0, sumMs) / count / 1000) : null;

const percentOf = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

const readWindow = (scope: Scope, from: string, to: string): Promise<HourRollup[]> =>
  metricHourRepository(scope.ports.table, scope.workspaceId).readHours(hourOf(from), hourOf(to));

/**
 * The headline figures of the incidents created in the window (their state now) and the signals
 * received in it, from the window's hourly rollups and the hours of signals not rolled up yet: two
 * reads however many incidents and signals there are. Definitions: docs/dashboard.md.
 */
export const getDashboardMetrics = async (scope: Scope, query: DashboardMetricsInput): Promise<DashboardMetrics> => {
  const { ports, workspaceId } = scope;
  const { from, to } = resolveWindow(ports.clock.now(), query);
  const [rollups, pendingSignals] = await Promise.all([
    readWindow(scope, from, to),
    signalCounterRepository(ports.table, workspaceId).readPendingIngestedHours(),
  ]);
  const [fromHour, toHour] = [hourOf(from), hourOf(to)];
  const pendingInWindow = [...pendingSignals].filter(([hour]) => hour >= fromHour && hour <= toHour);
  const totalIncidents = total(rollups, ROLLUP.created);
  const resolvedIncidents = Math.min(totalIncidents, total(rollups, ROLLUP.cohortResolved));
  const governed = total(rollups, ROLLUP.slaGoverned);
  const slaBreaches = Math.min(governed, total(rollups, ROLLUP.slaBreached));
  return {
    totalIncidents,
    openIncidents: totalIncidents - resolvedIncidents,
    resolvedIncidents,
    mttr: meanSeconds(total(rollups, ROLLUP.cohortResolveMs), total(rollups, ROLLUP.cohortResolved)),
    mttd: meanSeconds(total(rollups, ROLLUP.detectMs), total(rollups, ROLLUP.detected)),
    slaBreaches,
    // A window with no governed incident has broken no target: 100, with the count that says how many were judged.
    slaComplianceRate: governed > 0 ? percentOf(governed - slaBreaches, governed) : 100,
    slaGovernedIncidents: governed,
    criticalIncidents: total(rollups, `${ROLLUP.priorityPrefix}CRITICAL`),
    highIncidents: total(rollups, `${ROLLUP.priorityPrefix}HIGH`),
    signalsIngested:
      total(rollups, 'signalsIngested') + pendingInWindow.reduce((sum, [, count]) => sum + Math.max(0, count), 0),
    period: { from, to },
  };
};

/** Created and resolved per bucket of the workspace's time zone, every bucket of the window listed. */
const trendOf = (
  rollups: readonly HourRollup[],
  { from, to }: { from: string; to: string },
  timeZone: string,
  granularity: DashboardAnalyticsInput['granularity'],
): DashboardAnalytics['incidentTrend'] => {
  const buckets = new Map<string, { date: string; created: number; resolved: number }>();
  const dateOf = new Map<string, string>();
  for (const hour of hoursBetween(from, to)) {
    const date = bucketOfHour(hour, timeZone, granularity);
    dateOf.set(hour, date);
    if (!buckets.has(date)) buckets.set(date, { date, created: 0, resolved: 0 });
  }
  for (const { hour, counts } of rollups) {
    const bucket = buckets.get(dateOf.get(hour) ?? '');
    if (!bucket) continue;
    bucket.created += Math.max(0, counts[ROLLUP.created] ?? 0);
    bucket.resolved += Math.max(0, counts[ROLLUP.resolved] ?? 0);
  }
  return [...buckets.values()];
};

/** MTTR per current member who resolved incidents of the window; other resolvers (keys, `system`) are left out. */
const mttrByMember = async (
  scope: Scope,
  rollups: readonly HourRollup[],
): Promise<DashboardAnalytics['mttrByTeamMember']> => {
  const resolved = byPrefix(rollups, ROLLUP.resolverPrefix);
  if (resolved.size === 0) return [];
  const durations = byPrefix(rollups, ROLLUP.resolverMsPrefix);
  const members = await workspaceRepository(scope.ports.table, scope.workspaceId).listMembers();
  return members
    .flatMap((member) => {
      const key = resolverKey(member.email);
      const incidentsResolved = resolved.get(key) ?? 0;
      if (incidentsResolved === 0) return [];
      const name = memberName(member);
      const mttr = meanSeconds(durations.get(key) ?? 0, incidentsResolved) ?? 0;
      return [{ userId: member.id, name, mttr, incidentsResolved }];
    })
    .sort((a, b) => b.incidentsResolved - a.incidentsResolved || a.name.localeCompare(b.name));
};

/**
 * Trend and breakdowns of the window in the workspace's time zone: the hourly rollups, the zone and,
 * when someone resolved incidents of the window, the members' names; four reads at most however many
 * incidents there are. Definitions: docs/dashboard.md.
 */
export const getDashboardAnalytics = async (
  scope: Scope,
  query: DashboardAnalyticsInput,
): Promise<DashboardAnalytics> => {
  const { ports } = scope;
  const { granularity } = query;
  const window = resolveWindow(ports.clock.now(), query, granularity);
  const [rollups, timeZone] = await Promise.all([readWindow(scope, window.from, window.to), workspaceTimezone(scope)]);
  const created = total(rollups, ROLLUP.created);
  const sources = [...byPrefix(rollups, ROLLUP.sourcePrefix)].map(([key, count]) => ({
    source: decodeURIComponent(key),
    count,
  }));
  return {
    incidentTrend: trendOf(rollups, window, timeZone, granularity),
    severityBreakdown: Object.fromEntries(
      INCIDENT_PRIORITIES.map((priority) => [priority, total(rollups, `${ROLLUP.priorityPrefix}${priority}`)]),
    ) as DashboardAnalytics['severityBreakdown'],
    sourceBreakdown: Object.fromEntries(sources.map(({ source, count }) => [source, count])),
    mttrByTeamMember: await mttrByMember(scope, rollups),
    topIncidentSources: sources
      .sort((a, b) => b.count - a.count || a.source.localeCompare(b.source))
      .slice(0, TOP_SOURCES)
      .map(({ source, count }) => ({ source, count, percentage: percentOf(count, created) })),
    period: { ...window, granularity },
  };
};
