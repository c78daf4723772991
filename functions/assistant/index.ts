import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { accepted, created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { assistant } from '#lib/routes/assistant.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const analyses = onFirstUse(() => import('#lib/analysis/analysis-service.ts'));
const startAnalysisModule = onFirstUse(() => import('#lib/analysis/start-analysis.ts'));
const analysisModule = onFirstUse(() => import('#lib/analysis/analysis.ts'));
const learning = onFirstUse(() => import('#lib/analysis/learning-service.ts'));

export const handler = createGroupHandler(assistant, {
  analyse: async ({ scope, body }) => {
    const [{ startAnalysis }, { analysisView }] = await Promise.all([startAnalysisModule(), analysisModule()]);
    const { analysis, started } = await startAnalysis(scope, body.incidentId);
    return started
      ? accepted(analysisView(analysis), { message: 'Analysis started' })
      : ok(analysisView(analysis), { message: 'An analysis of this incident is already running' });
  },
  listAnalyses: async ({ scope, query }) => {
    const { items, ...paging } = await (await analyses()).listAnalyses(scope, query);
    return paged(items, query, paging, 'pageAndTotal');
  },
  getAnalysisStatus: async ({ scope, params }) => ok(await (await analyses()).getAnalysis(scope, params.analysisId)),
  getAnalysis: async ({ scope, params }) => ok(await (await analyses()).latestAnalysis(scope, params.incidentId)),
  generateReport: async ({ scope, body }) =>
    created(await (await analyses()).generateReport(scope, body), { message: 'Report generated' }),
  learn: async ({ scope, body }) =>
    ok(await (await learning()).learnOutcome(scope, body), { message: 'Outcome recorded' }),
  listPatterns: async ({ scope }) => ok(await (await learning()).listPatterns(scope)),
});
