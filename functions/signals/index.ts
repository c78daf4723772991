import { accepted, created, ok } from '#lib/http/envelope.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { paged } from '#lib/http/pagination.ts';
import { signals } from '#lib/routes/signals.ts';
import { createSignalsBulk } from '#lib/signals/bulk-signals.ts';
import { createSignal } from '#lib/signals/create-signal.ts';
import { getSignal, listSignals, moveSignal, signalStats } from '#lib/signals/signal-service.ts';
import { actorOf } from '#lib/identity/caller.ts';

export const handler = createGroupHandler(signals, {
  listSignals: async ({ query, runtime, workspaceId }) => {
    const { items, total } = await listSignals(runtime, workspaceId, query);
    return paged(items, query, total, 'pageAndTotal');
  },
  getSignalStats: async ({ runtime, workspaceId }) => ok(await signalStats(runtime, workspaceId)),
  getSignal: async ({ params, runtime, workspaceId }) => ok(await getSignal(runtime, workspaceId, params.id)),
  /** 201 once stored (also when merged: `deduplicated` says so); 202 when the table was busy and it is queued. */
  createSignal: async ({ body, runtime, workspaceId }) => {
    const { queued, ...signal } = await createSignal(runtime, workspaceId, body);
    if (queued) return accepted(signal, { message: 'Signal accepted; it is being stored' });
    return created(signal, { message: signal.deduplicated ? 'Signal merged into an open signal' : 'Signal created' });
  },
  /** 200 even when some items are rejected: each item's outcome is in `results`. */
  createSignalsBulk: async ({ body, runtime, workspaceId }) =>
    ok(await createSignalsBulk(runtime, workspaceId, body.signals), { message: 'Bulk signals processed' }),
  acknowledgeSignal: async ({ params, body, caller, runtime, workspaceId }) =>
    ok(await moveSignal(runtime, workspaceId, actorOf(caller), params.id, 'acknowledge', body.note), {
      message: 'Signal acknowledged',
    }),
  resolveSignal: async ({ params, body, caller, runtime, workspaceId }) =>
    ok(await moveSignal(runtime, workspaceId, actorOf(caller), params.id, 'resolve', body.note), {
      message: 'Signal resolved',
    }),
  suppressSignal: async ({ params, body, caller, runtime, workspaceId }) => {
    const reason = [body.reason, body.note].filter(Boolean).join('\n') || undefined;
    return ok(await moveSignal(runtime, workspaceId, actorOf(caller), params.id, 'suppress', reason), {
      message: 'Signal suppressed',
    });
  },
});
