import * as z from 'zod/mini';
import { timeBound } from '#lib/contract/fields.ts';
import { INCIDENT_PRIORITIES } from '#lib/incidents/incident.ts';
import { GRANULARITIES } from './zoned-buckets.ts';

const windowFields = {
  from: z.optional(timeBound('start').check(z.describe('Start of the window (ISO 8601); default 30 days before `to`'))),
  to: z.optional(timeBound('end').check(z.describe('End of the window (ISO 8601); default now'))),
};

export const dashboardMetricsQuery = z.object(windowFields);
export type DashboardMetricsInput = z.output<typeof dashboardMetricsQuery>;

export const dashboardAnalyticsQuery = z.object({
  ...windowFields,
  granularity: z._default(z.enum(GRANULARITIES), 'day'),
});
export type DashboardAnalyticsInput = z.output<typeof dashboardAnalyticsQuery>;

const period = z.object({ from: z.iso.datetime(), to: z.iso.datetime() });
const count = z.number().check(z.int(), z.gte(0));
const seconds = z.nullable(z.number().check(z.gte(0)));

export const dashboardMetricsResponse = z.object({
  totalIncidents: count,
  openIncidents: count,
  resolvedIncidents: count,
  mttr: seconds,
  mttd: seconds,
  slaBreaches: count,
  slaComplianceRate: z.number().check(z.gte(0), z.lte(100)),
  /** The incidents of the window an SLA policy governs: what `slaComplianceRate` is a share of. */
  slaGovernedIncidents: count,
  criticalIncidents: count,
  highIncidents: count,
  signalsIngested: count,
  period,
});
export type DashboardMetrics = z.output<typeof dashboardMetricsResponse>;

export const dashboardAnalyticsResponse = z.object({
  incidentTrend: z.array(z.object({ date: z.string(), created: count, resolved: count })),
  severityBreakdown: z.record(z.enum(INCIDENT_PRIORITIES), count),
  sourceBreakdown: z.record(z.string(), count),
  mttrByTeamMember: z.array(
    z.object({ userId: z.string(), name: z.string(), mttr: z.number().check(z.gte(0)), incidentsResolved: count }),
  ),
  topIncidentSources: z.array(
    z.object({ source: z.string(), count, percentage: z.number().check(z.gte(0), z.lte(100)) }),
  ),
  period: z.extend(period, { granularity: z.enum(GRANULARITIES) }),
});
export type DashboardAnalytics = z.output<typeof dashboardAnalyticsResponse>;
