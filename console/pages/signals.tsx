import { useState } from 'preact/hooks';
import { api, canWrite, type User } from '../api.ts';
import { MOVES, SIGNAL_SEVERITIES, SIGNAL_STATUSES, type SignalMove } from '#lib/signals/signal.ts';
import type { Signal } from '../model.ts';
import { type Filter, PagedListView, usePagedList } from '../paged-list.tsx';
import { SignalRow } from '../signal-row.tsx';
import { ErrorNote, Link, useAction } from '../ui.tsx';

const FILTERS: readonly Filter[] = [
  { name: 'status', label: 'Status', options: SIGNAL_STATUSES },
  // The most urgent first.
  { name: 'severity', label: 'Severity', options: [...SIGNAL_SEVERITIES].reverse() },
];

/** A signal's moves as its buttons, shown when its status allows them (the server's `MOVES`). */
const MOVE_LABELS: Record<SignalMove, string> = {
  acknowledge: 'Acknowledge',
  resolve: 'Resolve',
  suppress: 'Suppress',
};
const MOVE_NAMES = Object.keys(MOVE_LABELS) as SignalMove[];

/**
 * Signals, most recently received first, with acknowledge, resolve and suppress for those who may write. Each
 * move asks again in the row ("Resolve Disk 91% on db-1" or "Cancel"), as Resolve does on an incident: a
 * mistaken tap on a phone would end an alert for everyone.
 */
export const SignalsPage = ({ params, user }: { params: URLSearchParams; user: User }) => {
  const list = usePagedList<Signal>('/signals', '/signals', params, FILTERS);
  const action = useAction();
  const [asking, setAsking] = useState<{ id: string; move: SignalMove }>();
  const change = (signal: Signal, move: SignalMove) =>
    void action
      .run(() => api('PATCH', `/signals/${encodeURIComponent(signal.id)}/${move}`, {}))
      .then((done) => {
        setAsking(undefined);
        if (done) list.loaded.reload();
      });
  return (
    <main>
      <h1>Signals</h1>
      <ErrorNote error={action.error} />
      <PagedListView list={list} filters={FILTERS} empty="No signals match.">
        {(signals) =>
          signals.map((signal) => (
            <SignalRow
              key={signal.id}
              signal={signal}
              at="lastSeenAt"
              meta={
                <>
                  {signal.occurrences > 1 && <span>×{signal.occurrences}</span>}
                  {signal.incidentId && (
                    <Link to={`/incidents/${encodeURIComponent(signal.incidentId)}`}>{signal.incidentId}</Link>
                  )}
                </>
              }
            >
              {canWrite(user) && (
                <span class="row-actions">
                  {asking?.id === signal.id ? (
                    <>
                      <button
                        type="button"
                        class={asking.move === 'acknowledge' ? 'primary' : 'danger'}
                        disabled={action.busy}
                        onClick={() => change(signal, asking.move)}
                      >
                        {MOVE_LABELS[asking.move]} {signal.name}
                      </button>
                      <button type="button" onClick={() => setAsking(undefined)}>
                        Cancel
                      </button>
                    </>
                  ) : (
                    MOVE_NAMES.filter((move) => MOVES[move].from.includes(signal.status)).map((move) => (
                      <button key={move} type="button" onClick={() => setAsking({ id: signal.id, move })}>
                        {MOVE_LABELS[move]}…
                      </button>
                    ))
                  )}
                </span>
              )}
            </SignalRow>
          ))
        }
      </PagedListView>
    </main>
  );
};
