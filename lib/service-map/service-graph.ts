import type { Scope } from '#lib/identity/scope.ts';
import { type Dependency, type Service, isServiceId, nameKeyOf, ownsRepository } from './service.ts';
import { serviceMapRepository } from './service-map-repository.ts';

/**
 * A workspace's whole service map, read once and walked in memory: the read API other capabilities use
 * (blast radius, analysis). Edges whose ends are not both services (a dependency written while one of
 * its services was being deleted) are left out, as if the delete had removed them.
 */
export interface ServiceGraph {
  services: Service[];
  edges: Dependency[];
  /** A service by id, or by name compared as names are (trimmed, without case). */
  find(idOrName: string): Service | undefined;
  /** The service a repository's changes belong to: the one naming it as its `repository`, else one named like it. */
  ownerOfRepository(repository: string): Service | undefined;
  /** The services `serviceId` depends on (the targets of its edges). */
  upstreamOf(serviceId: string): Service[];
  /** The services that depend on `serviceId` (the sources of the edges into it). */
  downstreamOf(serviceId: string): Service[];
}

/** A service reached by a walk, `depth` hops from where it started (1 = direct). */
export interface ReachedService {
  service: Service;
  depth: number;
}

const buildServiceGraph = (services: Service[], dependencies: Dependency[]): ServiceGraph => {
  const byId = new Map(services.map((service) => [service.id, service]));
  const byName = new Map(services.map((service) => [nameKeyOf(service.name), service]));
  const edges = dependencies.filter((edge) => byId.has(edge.sourceId) && byId.has(edge.targetId));
  const upstream = new Map<string, Service[]>();
  const downstream = new Map<string, Service[]>();
  const push = (map: Map<string, Service[]>, at: string, service: Service | undefined) => {
    if (service) map.set(at, [...(map.get(at) ?? []), service]);
  };
  for (const edge of edges) {
    push(upstream, edge.sourceId, byId.get(edge.targetId));
    push(downstream, edge.targetId, byId.get(edge.sourceId));
  }
  return {
    services,
    edges,
    find: (idOrName) => byId.get(idOrName) ?? byName.get(nameKeyOf(idOrName)),
    // A service that names the repository outranks one that only shares its name.
    ownerOfRepository: (repository) =>
      services.find((service) => service.repository !== null && ownsRepository(service, repository)) ??
      services.find((service) => ownsRepository(service, repository)),
    upstreamOf: (serviceId) => upstream.get(serviceId) ?? [],
    downstreamOf: (serviceId) => downstream.get(serviceId) ?? [],
  };
};

export const loadServiceGraph = async ({ ports: { table }, workspaceId }: Scope): Promise<ServiceGraph> => {
  const { services, dependencies } = await serviceMapRepository(table, workspaceId).readMap();
  return buildServiceGraph(services, dependencies);
};

/**
 * Breadth-first from `serviceId` along dependents: each service once, at the fewest hops that reach it,
 * so a cycle ends the walk instead of repeating it; the start itself is not listed. `maxDepth` limits the hops.
 */
export const walkDownstream = (graph: ServiceGraph, serviceId: string, maxDepth = Infinity): ReachedService[] => {
  const seen = new Set([serviceId]);
  const reached: ReachedService[] = [];
  let frontier = [serviceId];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth += 1) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const dependent of graph.downstreamOf(id)) {
        if (seen.has(dependent.id)) continue;
        seen.add(dependent.id);
        reached.push({ service: dependent, depth });
        next.push(dependent.id);
      }
    }
    frontier = next;
  }
  return reached;
};

/**
 * One service by its id or its name (trimmed, without case): what signals and incidents carry in
 * `serviceId` or `serviceArea`. Two reads at most: the service by id, else the name's claim and its service.
 */
export const findServiceByIdOrName = async (
  { ports: { table }, workspaceId }: Scope,
  idOrName: string,
): Promise<Service | undefined> => {
  const map = serviceMapRepository(table, workspaceId);
  if (isServiceId(idOrName)) {
    const found = await map.findService(idOrName);
    if (found) return found.service;
  }
  const nameKey = nameKeyOf(idOrName);
  if (!nameKey) return undefined;
  const claim = await map.findClaim(nameKey);
  const holder = claim && (await map.findService(claim.serviceId));
  return holder && nameKeyOf(holder.service.name) === nameKey ? holder.service : undefined;
};
