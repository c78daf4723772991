import { created, ok } from '#lib/http/envelope.ts';
import { ForbiddenError } from '#lib/http/errors.ts';
import { createGroupHandler } from '#lib/http/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import type { Caller } from '#lib/http/route.ts';
import { createProblem, deleteProblem, getProblem, listProblems, updateProblem } from '#lib/problems/problem-service.ts';
import { problems } from '#lib/routes/problems.ts';
import { actorOf } from '#lib/tickets/history.ts';

/** The caller's workspace; the middlewares admit only a workspace member or a workspace's API key here. */
const workspaceOf = (caller: Caller): string => {
  if (caller.kind !== 'anonymous' && caller.workspaceId) return caller.workspaceId;
  throw new ForbiddenError('Set up or join a workspace first');
};

export const handler = createGroupHandler(problems, {
  createProblem: async ({ body, caller, runtime }) =>
    created(await createProblem(runtime, workspaceOf(caller), actorOf(caller), body), { message: 'Problem created' }),
  listProblems: async ({ query, caller, runtime }) => {
    const { items, total } = await listProblems(runtime, workspaceOf(caller), query);
    return paged(items, query, total);
  },
  getProblem: async ({ params, caller, runtime }) => ok(await getProblem(runtime, workspaceOf(caller), params.id)),
  updateProblem: async ({ params, body, caller, runtime }) =>
    ok(await updateProblem(runtime, workspaceOf(caller), actorOf(caller), params.id, body), { message: 'Problem updated' }),
  deleteProblem: async ({ params, caller, runtime }) => {
    await deleteProblem(runtime, workspaceOf(caller), actorOf(caller), params.id);
    return ok({}, { message: 'Problem deleted' });
  },
});
