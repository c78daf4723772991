import { defineGroup } from '#lib/http/route.ts';
import {
  dashboardAnalyticsQuery,
  dashboardAnalyticsResponse,
  dashboardMetricsQuery,
  dashboardMetricsResponse,
} from '#lib/dashboard/schemas.ts';
import { tableRead } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

const WINDOW = [
  '`from` and `to` are ISO 8601 (a date alone means the start or end of that UTC day); without them the',
  'window is the 30 days up to now. `from` must be before `to`, and at most 366 days before it. Figures',
  'are read from hourly rollups, so the hours holding `from` and `to` count whole. Definitions of every',
  'figure: docs/dashboard.md.',
].join(' ');

export const dashboard = defineGroup({
  name: 'dashboard',
  description: 'Dashboard metrics and analytics over a time window.',
  needs: [tableRead, signingKeys],
  routes: {
    getMetrics: {
      method: 'GET',
      path: '/api/v1/dashboard/metrics',
      summary: 'Incident, SLA and signal metrics for a period',
      description: `The incidents created in the window, as they are now, and the signals received in it. ${WINDOW}`,
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { query: dashboardMetricsQuery },
      response: { status: 200, data: dashboardMetricsResponse },
    },
    getAnalytics: {
      method: 'GET',
      path: '/api/v1/dashboard/analytics',
      summary: 'Incident trends and breakdowns for a period',
      description: `Buckets are hours, days or weeks (from Monday) of the workspace's IMS time zone (UTC when unset); \`hour\` covers at most 31 days. ${WINDOW}`,
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
      request: { query: dashboardAnalyticsQuery },
      response: { status: 200, data: dashboardAnalyticsResponse },
    },
  },
});
