import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from '#lib/incidents/incident.ts';
import type { Incident } from '../model.ts';
import { type Filter, PagedListView, usePagedList } from '../paged-list.tsx';
import { ago, Badge, Link, when } from '../ui.tsx';

/**
 * The list route's own filters: the open incidents unless another choice is made (the resolved and closed are
 * one choice away); a service area is matched whole, in any case (docs/console.md).
 */
const FILTERS: readonly Filter[] = [
  {
    name: 'open',
    label: 'Showing',
    options: ['true', 'false'],
    labels: { true: 'Open', false: 'Resolved or closed' },
    initial: 'true',
  },
  { name: 'status', label: 'Status', options: INCIDENT_STATUSES },
  // The most urgent first.
  { name: 'priority', label: 'Priority', options: [...INCIDENT_PRIORITIES].reverse() },
  { name: 'serviceArea', label: 'Service' },
];

/** Incidents, newest first, filtered and paged by the API. */
export const IncidentsPage = ({ params }: { params: URLSearchParams }) => {
  const list = usePagedList<Incident>('/incident-ticket', '/incidents', params, FILTERS);
  return (
    <main>
      <h1>Incidents</h1>
      <PagedListView list={list} filters={FILTERS} empty="No incidents match.">
        {(incidents) =>
          incidents.map((incident) => (
            <li key={incident.id}>
              <Link to={`/incidents/${encodeURIComponent(incident.id)}`} class="row">
                <span class="row-title">{incident.summary}</span>
                <span class="row-meta">
                  <Badge kind="status" value={incident.status} />
                  <Badge kind="priority" value={incident.priority} />
                  <span>{incident.id}</span>
                  {incident.serviceArea && <span>{incident.serviceArea}</span>}
                  <span class="age" title={when(incident.createdAt)}>
                    opened {ago(incident.createdAt)}
                  </span>
                </span>
              </Link>
            </li>
          ))
        }
      </PagedListView>
    </main>
  );
};
