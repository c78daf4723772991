import { api, canWrite, get, query, type User } from '../api.ts';
import { SEVERITIES, SIGNAL_STATUSES, type Signal } from '../model.ts';
import { navigate } from '../router.ts';
import { Badge, ErrorNote, Link, Pager, useAction, useLoad, when } from '../ui.tsx';

const PAGE_SIZE = 20;

/** Signals, most recently received first, with acknowledge, resolve and suppress for those who may write. */
export const SignalsPage = ({ params, user }: { params: URLSearchParams; user: User }) => {
  const status = params.get('status') ?? '';
  const severity = params.get('severity') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const list = useLoad(
    () => get<Signal[]>(`/signals${query({ status, severity, page, limit: PAGE_SIZE })}`),
    `${status}|${severity}|${page}`,
  );
  const action = useAction();
  const go = (changes: Record<string, string | number>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === '') next.delete(name);
      else next.set(name, String(value));
    }
    if (!('page' in changes)) next.delete('page');
    const text = next.toString();
    navigate(`/signals${text ? `?${text}` : ''}`);
  };
  const change = (signal: Signal, verb: 'acknowledge' | 'resolve' | 'suppress') =>
    void action
      .run(() => api('PATCH', `/signals/${encodeURIComponent(signal.id)}/${verb}`, {}))
      .then((done) => {
        if (done) list.reload();
      });
  const total = list.value?.total ?? 0;
  return (
    <main>
      <h1>Signals</h1>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select name="status" value={status} onChange={(e) => go({ status: e.currentTarget.value })}>
            <option value="">Any</option>
            {SIGNAL_STATUSES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          Severity
          <select name="severity" value={severity} onChange={(e) => go({ severity: e.currentTarget.value })}>
            <option value="">Any</option>
            {SEVERITIES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
      </form>
      <ErrorNote error={list.error ?? action.error} />
      <ul class="rows">
        {(list.value?.data ?? []).map((signal) => (
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
                {signal.status === 'OPEN' && (
                  <button type="button" disabled={action.busy} onClick={() => change(signal, 'acknowledge')}>
                    Acknowledge
                  </button>
                )}
                {signal.status !== 'RESOLVED' && (
                  <button type="button" disabled={action.busy} onClick={() => change(signal, 'resolve')}>
                    Resolve
                  </button>
                )}
                {signal.status !== 'SUPPRESSED' && (
                  <button type="button" disabled={action.busy} onClick={() => change(signal, 'suppress')}>
                    Suppress
                  </button>
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
      {list.value && total === 0 && <p>No signals match.</p>}
      <Pager page={page} totalPages={Math.ceil(total / PAGE_SIZE)} onPage={(n) => go({ page: n })} />
    </main>
  );
};
