import { createGroupHandler } from '#lib/app/group-handler.ts';
import { generateFix, getCodeAnalysis } from '#lib/code-engine/code-engine-service.ts';
import { getCodeHostSettings, putCodeHostSettings } from '#lib/code-engine/code-host-settings.ts';
import { createPullRequest } from '#lib/code-engine/create-pull-request.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { codeEngine } from '#lib/routes/code-engine.ts';

export const handler = createGroupHandler(codeEngine, {
  getAnalysis: async ({ scope, params }) => ok(await getCodeAnalysis(scope, params.id)),
  generateFix: async ({ scope, params }) => ok(await generateFix(scope, params.id), { message: 'Fix generated' }),
  createPullRequest: async ({ scope, params, body }) =>
    created(await createPullRequest(scope, { id: params.id, ...body }), { message: 'Pull request opened' }),
  getSettings: async ({ scope }) => ok(await getCodeHostSettings(scope)),
  putSettings: async ({ scope, body }) =>
    ok(await putCodeHostSettings(scope, body), { message: 'Code engine settings saved' }),
});
