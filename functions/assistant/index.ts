import { listAnalyses, latestAnalysis, generateReport } from '#lib/analysis/analysis-service.ts';
import { analysisView } from '#lib/analysis/analysis.ts';
import { learnOutcome, listPatterns } from '#lib/analysis/learning-service.ts';
import { startAnalysis } from '#lib/analysis/start-analysis.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { accepted, created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { assistant } from '#lib/routes/assistant.ts';

export const handler = createGroupHandler(assistant, {
  analyse: async ({ scope, body }) => {
    const { analysis, started } = await startAnalysis(scope, body.incidentId);
    return started
      ? accepted(analysisView(analysis), { message: 'Analysis started' })
      : ok(analysisView(analysis), { message: 'An analysis of this incident is already running' });
  },
  listAnalyses: async ({ scope, query }) => {
    const { items, ...paging } = await listAnalyses(scope, query);
    return paged(items, query, paging, 'pageAndTotal');
  },
  getAnalysis: async ({ scope, params }) => ok(await latestAnalysis(scope, params.incidentId)),
  generateReport: async ({ scope, body }) =>
    created(await generateReport(scope, body), { message: 'Report generated' }),
  learn: async ({ scope, body }) => ok(await learnOutcome(scope, body), { message: 'Outcome recorded' }),
  listPatterns: async ({ scope }) => ok(await listPatterns(scope)),
});
