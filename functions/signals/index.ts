import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { accepted, created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { signals } from '#lib/routes/signals.ts';

/**
 * Each route loads its service on its first request (`import()`, a chunk of its own), so a cold start
 * carries the HTTP layer and the route table, not every route's code.
 */
const signalService = onFirstUse(() => import('#lib/signals/signal-service.ts'));
const signalCorrelationModule = onFirstUse(() => import('#lib/correlation/signal-correlation.ts'));
const createSignalModule = onFirstUse(() => import('#lib/signals/create-signal.ts'));
const bulkSignalsModule = onFirstUse(() => import('#lib/signals/bulk-signals.ts'));

export const handler = createGroupHandler(signals, {
  listSignals: async ({ scope, query }) => {
    const { items, ...paging } = await (await signalService()).listSignals(scope, query);
    return paged(items, query, paging, 'pageAndTotal');
  },
  getSignalStats: async ({ scope }) => ok(await (await signalService()).signalStats(scope)),
  getSignal: async ({ scope, params }) => {
    const { getSignalWithCorrelation } = await signalCorrelationModule();
    return ok(await getSignalWithCorrelation(scope, params.id));
  },
  /** 201 once stored (also when merged: `deduplicated` says so); 202 when the table was busy and it is queued. */
  createSignal: async ({ scope, body }) => {
    const { createSignal } = await createSignalModule();
    const { queued, ...signal } = await createSignal(scope, body);
    if (queued) return accepted(signal, { message: 'Signal accepted; it is being stored' });
    return created(signal, { message: signal.deduplicated ? 'Signal merged into an open signal' : 'Signal created' });
  },
  /** 200 even when some items are rejected: each item's outcome is in `results`. */
  createSignalsBulk: async ({ scope, body }) => {
    const { createSignalsBulk } = await bulkSignalsModule();
    return ok(await createSignalsBulk(scope, body.signals), { message: 'Bulk signals processed' });
  },
  acknowledgeSignal: async ({ scope, params, body }) =>
    ok(await (await signalService()).moveSignal(scope, { id: params.id, move: 'acknowledge', note: body.note }), {
      message: 'Signal acknowledged',
    }),
  resolveSignal: async ({ scope, params, body }) =>
    ok(await (await signalService()).moveSignal(scope, { id: params.id, move: 'resolve', note: body.note }), {
      message: 'Signal resolved',
    }),
  suppressSignal: async ({ scope, params, body }) => {
    const reason = [body.reason, body.note].filter(Boolean).join('\n') || undefined;
    return ok(await (await signalService()).moveSignal(scope, { id: params.id, move: 'suppress', note: reason }), {
      message: 'Signal suppressed',
    });
  },
});
