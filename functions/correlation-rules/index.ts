import { createRule, deleteRule, effectiveRules, getRule, updateRule } from '#lib/correlation/rule-service.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { correlationRules } from '#lib/routes/correlation-rules.ts';

export const handler = createGroupHandler(correlationRules, {
  listRules: async ({ runtime, workspaceId }) => ok(await effectiveRules(runtime.table, workspaceId), { message: 'Correlation rules' }),
  getRule: async ({ params, runtime, workspaceId }) => ok(await getRule(runtime, workspaceId, params.id)),
  createRule: async ({ body, runtime, workspaceId }) =>
    created(await createRule(runtime, workspaceId, body), { message: 'Correlation rule created' }),
  updateRule: async ({ params, body, runtime, workspaceId }) =>
    ok(await updateRule(runtime, workspaceId, params.id, body), { message: 'Correlation rule updated' }),
  deleteRule: async ({ params, runtime, workspaceId }) =>
    ok(await deleteRule(runtime, workspaceId, params.id), { message: 'Correlation rule deleted' }),
});
