import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { problems } from '#lib/routes/problems.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/problems/problem-service.ts'));

export const handler = createGroupHandler(problems, {
  createProblem: async ({ scope, body }) =>
    created(await (await service()).createProblem(scope, body), { message: 'Problem created' }),
  listProblems: async ({ scope, query }) => {
    const { items, ...paging } = await (await service()).listProblems(scope, query);
    return paged(items, query, paging);
  },
  getProblem: async ({ scope, params }) => ok(await (await service()).getProblem(scope, params.id)),
  updateProblem: async ({ scope, params, body }) =>
    ok(await (await service()).updateProblem(scope, { id: params.id, changes: body }), { message: 'Problem updated' }),
  deleteProblem: async ({ scope, params }) => {
    await (await service()).deleteProblem(scope, params.id);
    return ok({}, { message: 'Problem deleted' });
  },
});
