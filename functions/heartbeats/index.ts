import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { heartbeats } from '#lib/routes/heartbeats.ts';
import { apiBaseUrl } from '#lib/http/api-base-url.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/heartbeats/heartbeat-service.ts'));

export const handler = createGroupHandler(heartbeats, {
  createHeartbeat: async ({ scope, body, event, headers }) =>
    created(await (await service()).createHeartbeat(scope, { input: body, baseUrl: apiBaseUrl(event, headers) }), {
      message: 'Heartbeat created',
    }),
  listHeartbeats: async ({ scope, event, headers }) =>
    ok({ heartbeats: await (await service()).listHeartbeats(scope, { baseUrl: apiBaseUrl(event, headers) }) }),
  getHeartbeat: async ({ scope, params, event, headers }) =>
    ok(await (await service()).getHeartbeat(scope, { id: params.id, baseUrl: apiBaseUrl(event, headers) })),
  replaceHeartbeat: async ({ scope, params, body, event, headers }) =>
    ok(
      await (await service()).replaceHeartbeat(scope, {
        id: params.id,
        input: body,
        baseUrl: apiBaseUrl(event, headers),
      }),
      { message: 'Heartbeat replaced' },
    ),
  deleteHeartbeat: async ({ scope, params }) => {
    await (await service()).deleteHeartbeat(scope, params.id);
    return ok({ id: params.id }, { message: 'Heartbeat deleted' });
  },
});
