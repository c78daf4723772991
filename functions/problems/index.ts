import { created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import { createProblem, deleteProblem, getProblem, listProblems, updateProblem } from '#lib/problems/problem-service.ts';
import { problems } from '#lib/routes/problems.ts';
import { actorOf } from '#lib/identity/caller.ts';

export const handler = createGroupHandler(problems, {
  createProblem: async ({ body, caller, runtime, workspaceId }) =>
    created(await createProblem(runtime, workspaceId, actorOf(caller), body), { message: 'Problem created' }),
  listProblems: async ({ query, runtime, workspaceId }) => {
    const { items, total } = await listProblems(runtime, workspaceId, query);
    return paged(items, query, total);
  },
  getProblem: async ({ params, runtime, workspaceId }) => ok(await getProblem(runtime, workspaceId, params.id)),
  updateProblem: async ({ params, body, caller, runtime, workspaceId }) =>
    ok(await updateProblem(runtime, workspaceId, actorOf(caller), params.id, body), { message: 'Problem updated' }),
  deleteProblem: async ({ params, caller, runtime, workspaceId }) => {
    await deleteProblem(runtime, workspaceId, actorOf(caller), params.id);
    return ok({}, { message: 'Problem deleted' });
  },
});
