import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import {
  createProblem,
  deleteProblem,
  getProblem,
  listProblems,
  updateProblem,
} from '#lib/problems/problem-service.ts';
import { problems } from '#lib/routes/problems.ts';

export const handler = createGroupHandler(problems, {
  createProblem: async ({ scope, body }) => created(await createProblem(scope, body), { message: 'Problem created' }),
  listProblems: async ({ scope, query }) => {
    const { items, ...paging } = await listProblems(scope, query);
    return paged(items, query, paging);
  },
  getProblem: async ({ scope, params }) => ok(await getProblem(scope, params.id)),
  updateProblem: async ({ scope, params, body }) =>
    ok(await updateProblem(scope, { id: params.id, changes: body }), { message: 'Problem updated' }),
  deleteProblem: async ({ scope, params }) => {
    await deleteProblem(scope, params.id);
    return ok({}, { message: 'Problem deleted' });
  },
});
