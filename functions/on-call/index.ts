import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { assignMember, getAssignment, listAssignments } from '#lib/on-call/on-call-service.ts';
import { onCall } from '#lib/routes/on-call.ts';

export const handler = createGroupHandler(onCall, {
  assignMember: async ({ scope, body }) => created(await assignMember(scope, body), { message: 'Member assigned' }),
  /** `data.assignments`, as the spec names the list. */
  listAssignments: async ({ scope }) => ok({ assignments: await listAssignments(scope) }),
  getAssignment: async ({ scope, params }) => ok(await getAssignment(scope, params.id)),
});
