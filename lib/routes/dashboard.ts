import { defineGroup } from '#lib/http/route.ts';
import { tableRead } from '#lib/ports/table/table-needs.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';

export const dashboard = defineGroup({
  name: 'dashboard',
  description: 'Dashboard metrics and analytics over a time window.',
  needs: [tableRead, signingKeys],
  routes: {
    getMetrics: {
      method: 'GET',
      path: '/api/v1/dashboard/metrics',
      summary: 'Incident, SLA and signal metrics for a period',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
    getAnalytics: {
      method: 'GET',
      path: '/api/v1/dashboard/analytics',
      summary: 'Incident trends and breakdowns for a period',
      auth: 'bearerOrApiKey',
      scope: 'analytics:read',
      access: 'read',
    },
  },
});
