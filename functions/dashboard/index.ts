import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { dashboard } from '#lib/routes/dashboard.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/dashboard/dashboard-service.ts'));

export const handler = createGroupHandler(dashboard, {
  getMetrics: async ({ scope, query }) => ok(await (await service()).getDashboardMetrics(scope, query)),
  getAnalytics: async ({ scope, query }) => ok(await (await service()).getDashboardAnalytics(scope, query)),
});
