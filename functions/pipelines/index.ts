import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { pipelines } from '#lib/routes/pipelines.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const runs = onFirstUse(() => import('#lib/pipelines/pipeline-runs.ts'));

export const handler = createGroupHandler(pipelines, {
  // The spec places the list as `runs[]` beside `pagination`: `data: { runs }` with `pagination` next to `data`.
  listRuns: async ({ scope, query }) => {
    const { items, ...paging } = await (await runs()).listPipelineRuns(scope, query);
    return paged({ runs: items }, query, paging, 'pagination');
  },
  getRun: async ({ scope, params }) => ok(await (await runs()).getPipelineRun(scope, params.id)),
});
