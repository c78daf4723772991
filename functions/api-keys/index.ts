import {
  createApiKey,
  deleteApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from '#lib/api-keys/api-key-service.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { ForbiddenError } from '#lib/http/errors.ts';
import { createGroupHandler } from '#lib/http/group-handler.ts';
import type { Caller } from '#lib/http/route.ts';
import { apiKeys } from '#lib/routes/api-keys.ts';

/** The middlewares admit only an ADMIN of a workspace here; this narrows the type to that workspace. */
const workspaceOf = (caller: Caller): string => {
  if (caller.kind === 'user' && caller.workspaceId) return caller.workspaceId;
  throw new ForbiddenError('Set up or join a workspace first');
};

export const handler = createGroupHandler(apiKeys, {
  createKey: async ({ body, caller, runtime }) =>
    created(await createApiKey(runtime, workspaceOf(caller), body), { message: 'API key created' }),
  listKeys: async ({ caller, runtime }) => ok(await listApiKeys(runtime, workspaceOf(caller)), { message: 'API keys' }),
  rotateKey: async ({ params, caller, runtime }) =>
    ok(await rotateApiKey(runtime, workspaceOf(caller), params.id), { message: 'API key rotated' }),
  revokeKey: async ({ params, caller, runtime }) => {
    await revokeApiKey(runtime, workspaceOf(caller), params.id);
    return ok({}, { message: 'API key revoked' });
  },
  updateKey: async ({ params, body, caller, runtime }) =>
    ok(await updateApiKey(runtime, workspaceOf(caller), params.id, body), { message: 'API key updated' }),
  deleteKey: async ({ params, caller, runtime }) => {
    await deleteApiKey(runtime, workspaceOf(caller), params.id);
    return ok({}, { message: 'API key deleted' });
  },
});
