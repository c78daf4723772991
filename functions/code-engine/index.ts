import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { codeEngine } from '#lib/routes/code-engine.ts';

// The engine is loaded by the first request that needs it, not at cold start (docs/performance.md).
const engine = onFirstUse(() => import('#lib/code-engine/code-engine-service.ts'));
const pullRequests = onFirstUse(() => import('#lib/code-engine/create-pull-request.ts'));
const settings = onFirstUse(() => import('#lib/code-engine/code-host-settings.ts'));

export const handler = createGroupHandler(codeEngine, {
  getAnalysis: async ({ scope, params }) => ok(await (await engine()).getCodeAnalysis(scope, params.id)),
  generateFix: async ({ scope, params }) =>
    ok(await (await engine()).generateFix(scope, params.id), { message: 'Fix generated' }),
  createPullRequest: async ({ scope, params, body }) =>
    created(await (await pullRequests()).createPullRequest(scope, { id: params.id, ...body }), {
      message: 'Pull request opened',
    }),
  getSettings: async ({ scope }) => ok(await (await settings()).getCodeHostSettings(scope)),
  putSettings: async ({ scope, body }) =>
    ok(await (await settings()).putCodeHostSettings(scope, body), { message: 'Code engine settings saved' }),
});
