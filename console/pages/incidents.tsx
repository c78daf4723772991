import { get, query } from '../api.ts';
import { INCIDENT_STATUSES, type Incident, PRIORITIES } from '../model.ts';
import { navigate } from '../router.ts';
import { Badge, ErrorNote, Link, Pager, useLoad, when } from '../ui.tsx';

const PAGE_SIZE = 20;

/**
 * Incidents, newest first, filtered by status and priority in the API. The list route has no service filter,
 * so the service field narrows the page in view (docs/console.md).
 */
export const IncidentsPage = ({ params }: { params: URLSearchParams }) => {
  const status = params.get('status') ?? '';
  const priority = params.get('priority') ?? '';
  const service = (params.get('service') ?? '').trim().toLowerCase();
  const page = Number(params.get('page') ?? '1') || 1;
  const list = useLoad(
    () => get<Incident[]>(`/incident-ticket${query({ status, priority, page, limit: PAGE_SIZE })}`),
    `${status}|${priority}|${page}`,
  );

  const go = (changes: Record<string, string | number>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === '') next.delete(name);
      else next.set(name, String(value));
    }
    if (!('page' in changes)) next.delete('page');
    const text = next.toString();
    navigate(`/incidents${text ? `?${text}` : ''}`);
  };

  const shown = (list.value?.data ?? []).filter(
    (incident) => !service || (incident.serviceArea ?? '').toLowerCase().includes(service),
  );
  return (
    <main>
      <h1>Incidents</h1>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select name="status" value={status} onChange={(e) => go({ status: e.currentTarget.value })}>
            <option value="">Any</option>
            {INCIDENT_STATUSES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          Priority
          <select name="priority" value={priority} onChange={(e) => go({ priority: e.currentTarget.value })}>
            <option value="">Any</option>
            {PRIORITIES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          Service
          <input
            name="service"
            type="search"
            value={params.get('service') ?? ''}
            onChange={(e) => go({ service: e.currentTarget.value })}
          />
        </label>
      </form>
      <ErrorNote error={list.error} />
      {list.loading && !list.value && <p>Loading…</p>}
      <ul class="rows incidents">
        {shown.map((incident) => (
          <li key={incident.id}>
            <Link to={`/incidents/${encodeURIComponent(incident.id)}`} class="row">
              <span class="row-title">{incident.summary}</span>
              <span class="row-meta">
                <Badge kind="status" value={incident.status} />
                <Badge kind="priority" value={incident.priority} />
                <span>{incident.id}</span>
                {incident.serviceArea && <span>{incident.serviceArea}</span>}
                <span>{when(incident.createdAt)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {list.value && shown.length === 0 && <p>No incidents match.</p>}
      {list.value?.meta && (
        <Pager page={page} totalPages={list.value.meta.totalPages} onPage={(n) => go({ page: n })} />
      )}
    </main>
  );
};
