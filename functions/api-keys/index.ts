import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { apiKeys } from '#lib/routes/api-keys.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const keys = onFirstUse(() => import('#lib/api-keys/api-key-service.ts'));

export const handler = createGroupHandler(apiKeys, {
  createKey: async ({ scope, body }) =>
    created(await (await keys()).createApiKey(scope, body), { message: 'API key created' }),
  listKeys: async ({ scope }) => ok(await (await keys()).listApiKeys(scope), { message: 'API keys' }),
  rotateKey: async ({ scope, params }) =>
    ok(await (await keys()).rotateApiKey(scope, params.id), { message: 'API key rotated' }),
  revokeKey: async ({ scope, params }) => {
    await (await keys()).revokeApiKey(scope, params.id);
    return ok({}, { message: 'API key revoked' });
  },
  updateKey: async ({ scope, params, body }) =>
    ok(await (await keys()).updateApiKey(scope, { id: params.id, changes: body }), { message: 'API key updated' }),
  deleteKey: async ({ scope, params }) => {
    await (await keys()).deleteApiKey(scope, params.id);
    return ok({}, { message: 'API key deleted' });
  },
});
