import { createGroupHandler } from '#lib/app/group-handler.ts';
import {
  createApiKey,
  deleteApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from '#lib/api-keys/api-key-service.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { apiKeys } from '#lib/routes/api-keys.ts';

export const handler = createGroupHandler(apiKeys, {
  createKey: async ({ scope, body }) => created(await createApiKey(scope, body), { message: 'API key created' }),
  listKeys: async ({ scope }) => ok(await listApiKeys(scope), { message: 'API keys' }),
  rotateKey: async ({ scope, params }) => ok(await rotateApiKey(scope, params.id), { message: 'API key rotated' }),
  revokeKey: async ({ scope, params }) => {
    await revokeApiKey(scope, params.id);
    return ok({}, { message: 'API key revoked' });
  },
  updateKey: async ({ scope, params, body }) =>
    ok(await updateApiKey(scope, { id: params.id, changes: body }), { message: 'API key updated' }),
  deleteKey: async ({ scope, params }) => {
    await deleteApiKey(scope, params.id);
    return ok({}, { message: 'API key deleted' });
  },
});
