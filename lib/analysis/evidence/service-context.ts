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

/**
 * The incident's service with its upstreams and dependents (two hops each), the edges among them (the paths a
 * cause chain walks) and their owner teams; alone when the map lacks it.
 */
export const serviceContextOf = (graph: ServiceGraph, name: string | null): ServiceContext | null => {
  if (!name) return null;
  const service = graph.find(name);
  if (!service) return { name, upstreams: [], dependents: [], dependencies: [], teams: {} };
  const nameOf = (id: string) => graph.find(id)?.name ?? id;
  const upstreams = walk(service.id, (id) => graph.upstreamOf(id).map((upstream) => upstream.id));
  const dependents = walk(service.id, (id) => graph.downstreamOf(id).map((dependent) => dependent.id));
  const around = new Set([service.id, ...upstreams, ...dependents]);
  const dependencies = graph.edges
    .filter((edge) => around.has(edge.sourceId) && around.has(edge.targetId))
    .map((edge) => ({ service: nameOf(edge.sourceId), upstream: nameOf(edge.targetId) }));
  const teams = Object.fromEntries(
    [...around].flatMap((id) => {
      const found = graph.find(id);
      return found?.team ? [[found.name, found.team]] : [];
    }),
  );
  return {
    name: service.name,
    upstreams: upstreams.map(nameOf),
    dependents: dependents.map(nameOf),
    dependencies,
    teams,
  };
};
