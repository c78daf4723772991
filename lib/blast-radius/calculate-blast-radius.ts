import { signalEnvironment } from '#lib/correlation/correlation-rule.ts';
import { BadRequestError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { isIncidentId } from '#lib/incidents/incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { type ServiceGraph, loadServiceGraph, walkDownstream } from '#lib/service-map/service-graph.ts';
import type { Service } from '#lib/service-map/service.ts';
import { signalRepository } from '#lib/signals/signal-repository.ts';
import { type AffectedService, type BlastReport, type TriggerType, isUlid } from './blast-report.ts';
import { blastReportRepository } from './blast-report-repository.ts';
import { NO_TROUBLE, overallRiskOf, riskScoreOf, userImpactOf } from './risk-model.ts';
import type { CalculateInput } from './schemas.ts';
import { serviceRiskRepository } from './service-risk-repository.ts';
import { troubleOn } from './service-trouble.ts';

interface Origin {
  service: Service;
  environment: string | null;
  trigger: { id: string; type: TriggerType } | null;
}

const namesNoService = (what: string): BadRequestError =>
  new BadRequestError('The trigger names no service', [
    `triggerId: ${what} names no service of the service map, by id or by name`,
  ]);

/**
 * The service a trigger is about: a signal's `serviceId`, or the first part of an incident's
 * `serviceArea` that is a service of the map (by id or name). Its environment is the report's when the
 * request names none.
 */
const originOfTrigger = async (scope: Scope, graph: ServiceGraph, triggerId: string): Promise<Origin> => {
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
  const service = signal.serviceId === null ? undefined : graph.find(signal.serviceId);
  if (!service) throw namesNoService(`signal ${triggerId}`);
  return { service, environment: signalEnvironment(signal) ?? null, trigger: { id: triggerId, type: 'SIGNAL' } };
};

const originOf = async (scope: Scope, graph: ServiceGraph, input: CalculateInput): Promise<Origin> => {
  const origin =
    input.triggerId !== undefined
      ? await originOfTrigger(scope, graph, input.triggerId)
      : { service: graph.services.find((service) => service.id === input.serviceId), environment: null, trigger: null };
  if (!origin.service) throw new NotFoundError('Service not found');
  return { ...origin, service: origin.service, environment: input.environment ?? origin.environment };
};

/**
 * Scores the service and its dependents up to `depth` hops (docs/service-map.md, "Risk model"), then
 * stores the report and adds each score to its service's running sums for the risk summary.
 */
export const calculateBlastRadius = async (scope: Scope, input: CalculateInput): Promise<BlastReport> => {
  const graph = await loadServiceGraph(scope);
  const { service, environment, trigger } = await originOf(scope, graph, input);
  const reached = [{ service, depth: 0 }, ...walkDownstream(graph, service.id, input.depth)];
  const trouble = await troubleOn(
    scope,
    graph,
    reached.map((entry) => entry.service),
    environment,
  );
  const affectedServices: AffectedService[] = reached.map(({ service: affected, depth }) => {
    const found = trouble.get(affected.id) ?? NO_TROUBLE;
    const dependents = graph.downstreamOf(affected.id).length;
    return {
      serviceId: affected.id,
      name: affected.name,
      depth,
      riskScore: riskScoreOf({ depth, maxDepth: input.depth, dependents, trouble: found }),
      dependents,
      openSignals: found.signals.length,
      openIncidents: found.incidents.length,
      failedPipelineRuns: found.failedRuns,
    };
  });
  const overallRiskScore = overallRiskOf(affectedServices.map((affected) => affected.riskScore));
  const report: BlastReport = {
    reportId: scope.ports.ids.sortable(),
    triggerId: trigger?.id ?? null,
    triggerType: trigger?.type ?? null,
    serviceId: service.id,
    environment,
    depth: input.depth,
    affectedServices,
    estimatedUserImpact: userImpactOf(overallRiskScore, affectedServices),
    overallRiskScore,
    calculatedAt: scope.ports.clock.now().toISOString(),
  };
  await blastReportRepository(scope.ports.table, scope.workspaceId).insertReport(report);
  await serviceRiskRepository(scope.ports.table, scope.workspaceId).addScores(affectedServices, report.calculatedAt);
  return report;
};
