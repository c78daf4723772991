import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { onCall } from '#lib/routes/on-call.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/on-call/on-call-service.ts'));

export const handler = createGroupHandler(onCall, {
  assignMember: async ({ scope, body }) =>
    created(await (await service()).assignMember(scope, body), { message: 'Member assigned' }),
  /** `data.assignments`, as the spec names the list. */
  listAssignments: async ({ scope }) => ok({ assignments: await (await service()).listAssignments(scope) }),
  getAssignment: async ({ scope, params }) => ok(await (await service()).getAssignment(scope, params.id)),
});
