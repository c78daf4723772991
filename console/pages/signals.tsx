import { api, canWrite, type User } from '../api.ts';
import { SEVERITIES, SIGNAL_STATUSES, type Signal } from '../model.ts';
import { type Filter, PagedListView, usePagedList } from '../paged-list.tsx';
import { Badge, ErrorNote, Link, useAction, when } from '../ui.tsx';

const FILTERS: readonly Filter[] = [
  { name: 'status', label: 'Status', options: SIGNAL_STATUSES },
  { name: 'severity', label: 'Severity', options: SEVERITIES },
];

type Move = 'acknowledge' | 'resolve' | 'suppress';

/** The moves a signal's status allows (docs/decisions.md, "Ingestion and signals"), as its buttons. */
const MOVES: { move: Move; label: string; allowed: (status: string) => boolean }[] = [
  { move: 'acknowledge', label: 'Acknowledge', allowed: (status) => status === 'OPEN' },
  { move: 'resolve', label: 'Resolve', allowed: (status) => status !== 'RESOLVED' },
  { move: 'suppress', label: 'Suppress', allowed: (status) => status !== 'SUPPRESSED' },
];

/** Signals, most recently received first, with acknowledge, resolve and suppress for those who may write. */
export const SignalsPage = ({ params, user }: { params: URLSearchParams; user: User }) => {
  const list = usePagedList<Signal>('/signals', '/signals', params, FILTERS);
  const action = useAction();
  const change = (signal: Signal, move: Move) =>
    void action
      .run(() => api('PATCH', `/signals/${encodeURIComponent(signal.id)}/${move}`, {}))
      .then((done) => done && list.loaded.reload());
  return (
    <main>
      <h1>Signals</h1>
      <ErrorNote error={action.error} />
      <PagedListView list={list} filters={FILTERS} empty="No signals match.">
        {(signals) =>
          signals.map((signal) => (
            <li key={signal.id} class="row">
              <span class="row-title">{signal.name}</span>
              <span class="row-meta">
                <Badge kind="status" value={signal.status} />
                <Badge kind="priority" value={signal.severity} />
                <span>{signal.source}</span>
                <span>{when(signal.lastSeenAt)}</span>
                {signal.occurrences > 1 && <span>×{signal.occurrences}</span>}
                {signal.incidentId && (
                  <Link to={`/incidents/${encodeURIComponent(signal.incidentId)}`}>{signal.incidentId}</Link>
                )}
              </span>
              {canWrite(user) && (
                <span class="row-actions">
                  {MOVES.filter(({ allowed }) => allowed(signal.status)).map(({ move, label }) => (
                    <button key={move} type="button" disabled={action.busy} onClick={() => change(signal, move)}>
                      {label}
                    </button>
                  ))}
                </span>
              )}
            </li>
          ))
        }
      </PagedListView>
    </main>
  );
};
