import { created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { assignMember, getAssignment, listAssignments } from '#lib/on-call/on-call-service.ts';
import { onCall } from '#lib/routes/on-call.ts';

export const handler = createGroupHandler(onCall, {
  assignMember: async ({ body, runtime, workspaceId }) =>
    created(await assignMember(runtime, workspaceId, body), { message: 'Member assigned' }),
  /** `data.assignments`, as the spec names the list. */
  listAssignments: async ({ runtime, workspaceId }) =>
    ok({ assignments: await listAssignments(runtime, workspaceId) }),
  getAssignment: async ({ params, runtime, workspaceId }) => ok(await getAssignment(runtime, workspaceId, params.id)),
});
