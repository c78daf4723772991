import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { loadServiceGraph, walkDownstream } from './service-graph.ts';
import { isServiceId } from './service.ts';

export interface Topology {
  nodes: { id: string; name: string; team: string | null }[];
  edges: { id: string; sourceId: string; targetId: string }[];
}

/** Edges point the way failures travel: `sourceId` is the upstream service, `targetId` its dependent (spec). */
export const getTopology = async (scope: Scope): Promise<Topology> => {
  const graph = await loadServiceGraph(scope);
  return {
    nodes: graph.services.map(({ id, name, team }) => ({ id, name, team })),
    edges: graph.edges.map(({ id, sourceId, targetId }) => ({ id, sourceId: targetId, targetId: sourceId })),
  };
};

export interface ImpactedService {
  id: string;
  name: string;
  depth: number;
}

/** Direct (depth 1) and transitive dependents, nearest first, each once. */
export const getDownstreamImpact = async (
  scope: Scope,
  { id: serviceId, depth }: { id: string; depth?: number },
): Promise<ImpactedService[]> => {
  const graph = isServiceId(serviceId) ? await loadServiceGraph(scope) : undefined;
  if (!graph?.services.some((service) => service.id === serviceId)) throw new NotFoundError('Service not found');
  return walkDownstream(graph, serviceId, depth).map(({ service, depth: hops }) => ({
    id: service.id,
    name: service.name,
    depth: hops,
  }));
};
