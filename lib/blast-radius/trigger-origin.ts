import { signalEnvironment } from '#lib/correlation/correlation-rule.ts';
import { BadRequestError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { isIncidentId } from '#lib/incidents/incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import type { ServiceGraph } from '#lib/service-map/service-graph.ts';
import type { Service } from '#lib/service-map/service.ts';
import { signalRepository } from '#lib/signals/signal-repository.ts';
import { type TriggerType, isUlid } from './blast-report.ts';

export interface Origin {
  service: Service;
  environment: string | null;
  trigger: { id: string; type: TriggerType } | null;
}

const namesNoService = (what: string): BadRequestError =>
  new BadRequestError('The trigger names no service', [
    `triggerId: ${what} names no service of the service map, by id or by name`,
  ]);

/**
 * The service a code host's signal is about: it names a repository (`metadata.repository`), not a service,
 * and the map's repository rule gives the service.
 */
const ownerOfSignalRepository = (graph: ServiceGraph, metadata: Record<string, unknown>): Service | undefined =>
  typeof metadata.repository === 'string' ? graph.ownerOfRepository(metadata.repository) : undefined;

/**
 * The service a trigger is about: a signal's `serviceId`, else the owner of the repository it names, or the
 * first part of an incident's `serviceArea` that is a service of the map (by id or name). Its environment is
 * the report's when the request names none.
 */
export const originOfTrigger = async (scope: Scope, graph: ServiceGraph, triggerId: string): Promise<Origin> => {
  const { table } = scope.ports;
  if (isIncidentId(triggerId)) {
    const incident = await incidentRepository(table, scope.workspaceId).getIncident(triggerId);
    if (!incident) throw new NotFoundError('No signal or incident with this id');
    const service = (incident.serviceArea ?? '')
      .split(',')
      .map((part) => graph.find(part.trim()))
      .find((found) => found !== undefined);
    if (!service) throw namesNoService(`incident ${triggerId}`);
    return { service, environment: incident.environment ?? null, trigger: { id: triggerId, type: 'INCIDENT' } };
  }
  const signal = isUlid(triggerId) ? await signalRepository(table, scope.workspaceId).findSignal(triggerId) : undefined;
  if (!signal) throw new NotFoundError('No signal or incident with this id');
  const service =
    (signal.serviceId === null ? undefined : graph.find(signal.serviceId)) ??
    ownerOfSignalRepository(graph, signal.metadata);
  if (!service) throw namesNoService(`signal ${triggerId}`);
  return { service, environment: signalEnvironment(signal) ?? null, trigger: { id: triggerId, type: 'SIGNAL' } };
};
