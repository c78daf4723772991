import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { correlationRules } from '#lib/routes/correlation-rules.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const rules = onFirstUse(() => import('#lib/correlation/rule-service.ts'));

export const handler = createGroupHandler(correlationRules, {
  listRules: async ({ scope }) => ok(await (await rules()).effectiveRules(scope), { message: 'Correlation rules' }),
  getRule: async ({ scope, params }) => ok(await (await rules()).getRule(scope, params.id)),
  createRule: async ({ scope, body }) =>
    created(await (await rules()).createRule(scope, body), { message: 'Correlation rule created' }),
  updateRule: async ({ scope, params, body }) =>
    ok(await (await rules()).updateRule(scope, { id: params.id, changes: body }), {
      message: 'Correlation rule updated',
    }),
  deleteRule: async ({ scope, params }) =>
    ok(await (await rules()).deleteRule(scope, params.id), { message: 'Correlation rule deleted' }),
});
