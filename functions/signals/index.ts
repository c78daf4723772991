import { createGroupHandler } from '#lib/app/group-handler.ts';
import { accepted, created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { signals } from '#lib/routes/signals.ts';
import { createSignalsBulk } from '#lib/signals/bulk-signals.ts';
import { createSignal } from '#lib/signals/create-signal.ts';
import { listSignals, moveSignal, signalStats } from '#lib/signals/signal-service.ts';

/** Correlation's rules and groups are read by one route only, so they are a chunk that route loads. */
const signalCorrelation = () => import('#lib/correlation/signal-correlation.ts');

export const handler = createGroupHandler(signals, {
  listSignals: async ({ scope, query }) => {
    const { items, ...paging } = await listSignals(scope, query);
    return paged(items, query, paging, 'pageAndTotal');
  },
  getSignalStats: async ({ scope }) => ok(await signalStats(scope)),
  getSignal: async ({ scope, params }) =>
    ok(await (await signalCorrelation()).getSignalWithCorrelation(scope, params.id)),
  /** 201 once stored (also when merged: `deduplicated` says so); 202 when the table was busy and it is queued. */
  createSignal: async ({ scope, body }) => {
    const { queued, ...signal } = await createSignal(scope, body);
    if (queued) return accepted(signal, { message: 'Signal accepted; it is being stored' });
    return created(signal, { message: signal.deduplicated ? 'Signal merged into an open signal' : 'Signal created' });
  },
  /** 200 even when some items are rejected: each item's outcome is in `results`. */
  createSignalsBulk: async ({ scope, body }) =>
    ok(await createSignalsBulk(scope, body.signals), { message: 'Bulk signals processed' }),
  acknowledgeSignal: async ({ scope, params, body }) =>
    ok(await moveSignal(scope, { id: params.id, move: 'acknowledge', note: body.note }), {
      message: 'Signal acknowledged',
    }),
  resolveSignal: async ({ scope, params, body }) =>
    ok(await moveSignal(scope, { id: params.id, move: 'resolve', note: body.note }), { message: 'Signal resolved' }),
  suppressSignal: async ({ scope, params, body }) => {
    const reason = [body.reason, body.note].filter(Boolean).join('\n') || undefined;
    return ok(await moveSignal(scope, { id: params.id, move: 'suppress', note: reason }), {
      message: 'Signal suppressed',
    });
  },
});
