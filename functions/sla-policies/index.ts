import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { slaPolicies } from '#lib/routes/sla-policies.ts';
import { createPolicy, deletePolicy, getPolicy, listPolicies, replacePolicy } from '#lib/sla/sla-policy-service.ts';

export const handler = createGroupHandler(slaPolicies, {
  createPolicy: async ({ scope, body }) => created(await createPolicy(scope, body), { message: 'SLA policy created' }),
  listPolicies: async ({ scope }) => ok({ policies: await listPolicies(scope) }),
  getPolicy: async ({ scope, params }) => ok(await getPolicy(scope, params.id)),
  replacePolicy: async ({ scope, params, body }) =>
    ok(await replacePolicy(scope, { id: params.id, fields: body }), { message: 'SLA policy replaced' }),
  deletePolicy: async ({ scope, params }) => {
    await deletePolicy(scope, params.id);
    return ok({ id: params.id }, { message: 'SLA policy deleted' });
  },
});
