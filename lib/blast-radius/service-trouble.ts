import type { Scope } from '#lib/identity/scope.ts';
import type { ServiceGraph } from '#lib/service-map/service-graph.ts';
import { type Service, ownsRepository } from '#lib/service-map/service.ts';
import { RECENT_RUNS_MS, type ServiceTrouble } from './risk-model.ts';
import { serviceTroubleRepository } from './service-trouble-repository.ts';

/** The services an incident names: each comma-separated part of its `serviceArea`, by id or name. */
const servicesNamedBy = (graph: ServiceGraph, serviceArea: string): Service[] =>
  serviceArea
    .split(',')
    .map((part) => graph.find(part.trim()))
    .filter((service): service is Service => service !== undefined);

/**
 * The live trouble on each of `services`: signals whose `serviceId`, and incidents whose `serviceArea`,
 * name the service by id or by name (linked here, at read time: ingestion stays as it is), and failed
 * pipeline runs of its repositories in the last 24 hours.
 */
export const troubleOn = async (
  { ports: { table, clock }, workspaceId }: Scope,
  graph: ServiceGraph,
  services: readonly Service[],
  environment: string | null,
): Promise<Map<string, ServiceTrouble>> => {
  const since = new Date(clock.now().getTime() - RECENT_RUNS_MS).toISOString();
  const reads = serviceTroubleRepository(table, workspaceId);
  const [signals, incidents, repositories] = await Promise.all([
    reads.liveSignals(),
    reads.liveIncidents(environment),
    reads.failedRunRepositories(since),
  ]);
  const trouble = new Map<string, ServiceTrouble>(
    services.map((service) => [service.id, { incidents: [], signals: [], failedRuns: 0 }]),
  );
  for (const signal of signals) trouble.get(graph.find(signal.serviceId)?.id ?? '')?.signals.push(signal.severity);
  for (const incident of incidents) {
    const named = new Set(servicesNamedBy(graph, incident.serviceArea).map((service) => service.id));
    for (const serviceId of named) trouble.get(serviceId)?.incidents.push(incident.priority);
  }
  for (const service of services) {
    const entry = trouble.get(service.id);
    if (entry) entry.failedRuns = repositories.filter((repository) => ownsRepository(service, repository)).length;
  }
  return trouble;
};
