import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { blastRadius } from '#lib/routes/blast-radius.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const reports = onFirstUse(() => import('#lib/blast-radius/blast-reports.ts'));
const calculateBlastRadiusModule = onFirstUse(() => import('#lib/blast-radius/calculate-blast-radius.ts'));

export const handler = createGroupHandler(blastRadius, {
  calculate: async ({ scope, body }) => {
    const { calculateBlastRadius } = await calculateBlastRadiusModule();
    return created(await calculateBlastRadius(scope, body), { message: 'Blast-radius report calculated' });
  },
  listReports: async ({ scope, query }) => {
    const { items, ...paging } = await (await reports()).listReports(scope, query);
    return paged(items, query, paging, 'pageAndTotal');
  },
  getRiskSummary: async ({ scope }) => ok(await (await reports()).getRiskSummary(scope)),
  listTriggerReports: async ({ scope, params }) =>
    ok(await (await reports()).listTriggerReports(scope, params.triggerId)),
  getReport: async ({ scope, params }) => ok(await (await reports()).getReport(scope, params.id)),
});
