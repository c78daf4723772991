import { created, ok } from '#lib/http/envelope.ts';
import { ForbiddenError } from '#lib/http/errors.ts';
import { createGroupHandler } from '#lib/http/group-handler.ts';
import type { Caller } from '#lib/http/route.ts';
import { assignMember, getAssignment, listAssignments } from '#lib/on-call/on-call-service.ts';
import { onCall } from '#lib/routes/on-call.ts';

/** The caller's workspace; the middlewares admit only a workspace member or a workspace's API key here. */
const workspaceOf = (caller: Caller): string => {
  if (caller.kind !== 'anonymous' && caller.workspaceId) return caller.workspaceId;
  throw new ForbiddenError('Set up or join a workspace first');
};

export const handler = createGroupHandler(onCall, {
  assignMember: async ({ body, caller, runtime }) =>
    created(await assignMember(runtime, workspaceOf(caller), body), { message: 'Member assigned' }),
  /** `data.assignments`, as the spec names the list. */
  listAssignments: async ({ caller, runtime }) =>
    ok({ assignments: await listAssignments(runtime, workspaceOf(caller)) }),
  getAssignment: async ({ params, caller, runtime }) => ok(await getAssignment(runtime, workspaceOf(caller), params.id)),
});
