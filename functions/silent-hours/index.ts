import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { silentHours } from '#lib/routes/silent-hours.ts';
import { deleteRule, listRules, replaceRule, replaceRules } from '#lib/silent-hours/silent-hours-service.ts';

export const handler = createGroupHandler(silentHours, {
  listRules: async ({ scope }) => ok({ rules: await listRules(scope) }),
  replaceRules: async ({ scope, body }) =>
    ok({ rules: await replaceRules(scope, body) }, { message: 'Silent-hours rules replaced' }),
  replaceRule: async ({ scope, params, body }) =>
    ok(await replaceRule(scope, { id: params.id, rule: body }), { message: 'Silent-hours rule replaced' }),
  deleteRule: async ({ scope, params }) => {
    await deleteRule(scope, params.id);
    return ok({ id: params.id }, { message: 'Silent-hours rule deleted' });
  },
});
