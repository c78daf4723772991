import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { getPipelineRun, listPipelineRuns } from '#lib/pipelines/pipeline-runs.ts';
import { pipelines } from '#lib/routes/pipelines.ts';

export const handler = createGroupHandler(pipelines, {
  // The spec places the list as `runs[]` beside `pagination`: `data: { runs }` with `pagination` next to `data`.
  listRuns: async ({ scope, query }) => {
    const { items, ...paging } = await listPipelineRuns(scope, query);
    return paged({ runs: items }, query, paging, 'pagination');
  },
  getRun: async ({ scope, params }) => ok(await getPipelineRun(scope, params.id)),
});
