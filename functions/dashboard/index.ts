import { createGroupHandler } from '#lib/app/group-handler.ts';
import { getDashboardAnalytics, getDashboardMetrics } from '#lib/dashboard/dashboard-service.ts';
import { ok } from '#lib/http/envelope.ts';
import { dashboard } from '#lib/routes/dashboard.ts';

export const handler = createGroupHandler(dashboard, {
  getMetrics: async ({ scope, query }) => ok(await getDashboardMetrics(scope, query)),
  getAnalytics: async ({ scope, query }) => ok(await getDashboardAnalytics(scope, query)),
});
