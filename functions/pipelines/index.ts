import { ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import { getPipelineRun, listPipelineRuns } from '#lib/pipelines/pipeline-runs.ts';
import { pipelines } from '#lib/routes/pipelines.ts';

export const handler = createGroupHandler(pipelines, {
  // The spec places the list as `runs[]` beside `pagination`: `data: { runs }` with `pagination` next to `data`.
  listRuns: async ({ query: { page, limit, ...filter }, runtime, workspaceId }) => {
    const { items, total } = await listPipelineRuns(runtime, workspaceId, filter, { page, limit });
    return paged({ runs: items }, { page, limit }, total, 'pagination');
  },
  getRun: async ({ params, runtime, workspaceId }) => ok(await getPipelineRun(runtime, workspaceId, params.id)),
});
