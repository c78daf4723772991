import { createGroupHandler } from '#lib/app/group-handler.ts';
import { getReport, getRiskSummary, listReports, listTriggerReports } from '#lib/blast-radius/blast-reports.ts';
import { calculateBlastRadius } from '#lib/blast-radius/calculate-blast-radius.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { blastRadius } from '#lib/routes/blast-radius.ts';

export const handler = createGroupHandler(blastRadius, {
  calculate: async ({ scope, body }) =>
    created(await calculateBlastRadius(scope, body), { message: 'Blast-radius report calculated' }),
  listReports: async ({ scope, query }) => {
    const { items, ...paging } = await listReports(scope, query);
    return paged(items, query, paging, 'pageAndTotal');
  },
  getRiskSummary: async ({ scope }) => ok(await getRiskSummary(scope)),
  listTriggerReports: async ({ scope, params }) => ok(await listTriggerReports(scope, params.triggerId)),
  getReport: async ({ scope, params }) => ok(await getReport(scope, params.id)),
});
