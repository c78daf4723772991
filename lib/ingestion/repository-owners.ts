import type { Scope } from '#lib/identity/scope.ts';
import { loadServiceGraph } from '#lib/service-map/service-graph.ts';
import type { NormalizedEvent } from './normalized-event.ts';

/** The repository an event is about when it names no service: a code host's deployment, run, check or push. */
const unownedRepository = ({ signal }: NormalizedEvent): string | undefined =>
  signal.serviceId === undefined && typeof signal.metadata.repository === 'string'
    ? signal.metadata.repository
    : undefined;

/**
 * Gives each event that names a repository and no service the service owning that repository by the service
 * map's rule (docs/service-map.md, "Repositories"), as its `serviceId`, the service's id: the signal is then
 * the service's from its first write, in its service index, its correlation group, the incident opened from
 * it and a blast radius, as an alert naming its service is. The map is read once per delivery, only for a
 * delivery with such an event, so alerts and pages cost nothing more.
 */
export const withRepositoryOwners = async (
  scope: Scope,
  events: readonly NormalizedEvent[],
): Promise<NormalizedEvent[]> => {
  if (!events.some((event) => unownedRepository(event) !== undefined)) return [...events];
  const graph = await loadServiceGraph(scope);
  return events.map((event) => {
    const repository = unownedRepository(event);
    const owner = repository === undefined ? undefined : graph.ownerOfRepository(repository);
    return owner ? { ...event, signal: { ...event.signal, serviceId: owner.id } } : event;
  });
};
