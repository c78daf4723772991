import {
  createApiKey,
  deleteApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from '#lib/api-keys/api-key-service.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { apiKeys } from '#lib/routes/api-keys.ts';

export const handler = createGroupHandler(apiKeys, {
  createKey: async ({ body, runtime, workspaceId }) =>
    created(await createApiKey(runtime, workspaceId, body), { message: 'API key created' }),
  listKeys: async ({ runtime, workspaceId }) => ok(await listApiKeys(runtime, workspaceId), { message: 'API keys' }),
  rotateKey: async ({ params, runtime, workspaceId }) =>
    ok(await rotateApiKey(runtime, workspaceId, params.id), { message: 'API key rotated' }),
  revokeKey: async ({ params, runtime, workspaceId }) => {
    await revokeApiKey(runtime, workspaceId, params.id);
    return ok({}, { message: 'API key revoked' });
  },
  updateKey: async ({ params, body, runtime, workspaceId }) =>
    ok(await updateApiKey(runtime, workspaceId, params.id, body), { message: 'API key updated' }),
  deleteKey: async ({ params, runtime, workspaceId }) => {
    await deleteApiKey(runtime, workspaceId, params.id);
    return ok({}, { message: 'API key deleted' });
  },
});
