import type { ServiceContext } from '#lib/ports/reasoner/evidence.ts';
import type { ServiceGraph } from '#lib/service-map/service-graph.ts';

/** How far the checks follow the map: upstreams of upstreams, dependents of dependents, no further. */
const HOPS = 2;

/** A signal's `serviceId` may be a service's id or its name: the map's name either way, the value itself if unknown. */
export const serviceNameOf = (graph: ServiceGraph, idOrName: string | null): string | null => {
  if (!idOrName) return null;
  return graph.find(idOrName)?.name ?? idOrName;
};

const walk = (start: string, next: (id: string) => string[]): string[] => {
  const seen = new Set<string>([start]);
  let frontier = [start];
  for (let hop = 0; hop < HOPS; hop += 1) {
    frontier = frontier.flatMap(next).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  seen.delete(start);
  return [...seen];
};

/** The incident's service with its upstreams and dependents (two hops each); alone when the map lacks it. */
export const serviceContextOf = (graph: ServiceGraph, name: string | null): ServiceContext | null => {
  if (!name) return null;
  const service = graph.find(name);
  if (!service) return { name, upstreams: [], dependents: [] };
  const nameOf = (id: string) => graph.find(id)?.name ?? id;
  const upstreams = walk(service.id, (id) => graph.upstreamOf(id).map((upstream) => upstream.id));
  const dependents = walk(service.id, (id) => graph.downstreamOf(id).map((dependent) => dependent.id));
  return { name: service.name, upstreams: upstreams.map(nameOf), dependents: dependents.map(nameOf) };
};
