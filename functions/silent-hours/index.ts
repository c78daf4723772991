import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { silentHours } from '#lib/routes/silent-hours.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/silent-hours/silent-hours-service.ts'));

export const handler = createGroupHandler(silentHours, {
  listRules: async ({ scope }) => ok({ rules: await (await service()).listRules(scope) }),
  replaceRules: async ({ scope, body }) =>
    ok({ rules: await (await service()).replaceRules(scope, body) }, { message: 'Silent-hours rules replaced' }),
  replaceRule: async ({ scope, params, body }) =>
    ok(await (await service()).replaceRule(scope, { id: params.id, rule: body }), {
      message: 'Silent-hours rule replaced',
    }),
  deleteRule: async ({ scope, params }) => {
    await (await service()).deleteRule(scope, params.id);
    return ok({ id: params.id }, { message: 'Silent-hours rule deleted' });
  },
});
