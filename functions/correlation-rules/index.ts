import { createGroupHandler } from '#lib/app/group-handler.ts';
import { createRule, deleteRule, effectiveRules, getRule, updateRule } from '#lib/correlation/rule-service.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { correlationRules } from '#lib/routes/correlation-rules.ts';

export const handler = createGroupHandler(correlationRules, {
  listRules: async ({ scope }) => ok(await effectiveRules(scope), { message: 'Correlation rules' }),
  getRule: async ({ scope, params }) => ok(await getRule(scope, params.id)),
  createRule: async ({ scope, body }) =>
    created(await createRule(scope, body), { message: 'Correlation rule created' }),
  updateRule: async ({ scope, params, body }) =>
    ok(await updateRule(scope, { id: params.id, changes: body }), { message: 'Correlation rule updated' }),
  deleteRule: async ({ scope, params }) =>
    ok(await deleteRule(scope, params.id), { message: 'Correlation rule deleted' }),
});
