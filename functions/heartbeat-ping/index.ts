import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { ok } from '#lib/http/envelope.ts';
import { heartbeatPing } from '#lib/routes/heartbeat-ping.ts';

/** The service loads on the first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const service = onFirstUse(() => import('#lib/heartbeats/heartbeat-ping.ts'));

export const handler = createGroupHandler(heartbeatPing, {
  pingHeartbeatGet: async ({ accountScope, params }) =>
    ok(await (await service()).pingHeartbeat(accountScope, params.token), { message: 'Ping recorded' }),
  pingHeartbeatPost: async ({ accountScope, params }) =>
    ok(await (await service()).pingHeartbeat(accountScope, params.token), { message: 'Ping recorded' }),
});
