import type { ServiceContext } from '#lib/ports/reasoner/evidence.ts';
import { sameService } from './service-names.ts';

/** The service map as the checks read it: services by id and name, and who depends on whom, by id. */
export interface ServiceGraphView {
  services: readonly { id: string; name: string }[];
  /** `dependent` depends on `upstream`. */
  dependencies: readonly { dependent: string; upstream: string }[];
}

/** How far the checks follow the map: upstreams of upstreams, dependents of dependents, no further. */
const HOPS = 2;

/** A signal's `serviceId` may be a service's id or its name: the name either way, the value itself if unknown. */
export const serviceNameOf = (graph: ServiceGraphView | undefined, idOrName: string | null): string | null => {
  if (!idOrName) return null;
  const service = graph?.services.find(
    (candidate) => candidate.id === idOrName || sameService(candidate.name, idOrName),
  );
  return service?.name ?? idOrName;
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

/** The incident's service with its upstreams and dependents (two hops each), or null when the map lacks it. */
export const serviceContextOf = (graph: ServiceGraphView | undefined, name: string | null): ServiceContext | null => {
  const service = name ? graph?.services.find((candidate) => sameService(candidate.name, name)) : undefined;
  if (!graph || !service) return name ? { name, upstreams: [], dependents: [] } : null;
  const nameOf = (id: string) => graph.services.find((candidate) => candidate.id === id)?.name ?? id;
  const upstreams = walk(service.id, (id) =>
    graph.dependencies.filter((edge) => edge.dependent === id).map((edge) => edge.upstream),
  );
  const dependents = walk(service.id, (id) =>
    graph.dependencies.filter((edge) => edge.upstream === id).map((edge) => edge.dependent),
  );
  return { name: service.name, upstreams: upstreams.map(nameOf), dependents: dependents.map(nameOf) };
};
