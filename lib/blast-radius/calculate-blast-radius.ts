import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { type ServiceGraph, loadServiceGraph, walkDownstream } from '#lib/service-map/service-graph.ts';
import type { AffectedService, BlastReport } from './blast-report.ts';
import { blastReportRepository } from './blast-report-repository.ts';
import { NO_TROUBLE, overallRiskOf, riskScoreOf, userImpactOf } from './risk-model.ts';
import type { CalculateInput } from './schemas.ts';
import { serviceRiskRepository } from './service-risk-repository.ts';
import { troubleOn } from './service-trouble.ts';
import type { Origin } from './trigger-origin.ts';

/**
 * Reading a trigger needs the signal and incident modules, which the reads of this group never use: they
 * are a chunk loaded by the first calculation from a trigger, not part of the cold start.
 */
const originOf = async (scope: Scope, graph: ServiceGraph, input: CalculateInput): Promise<Origin> => {
  const { triggerId } = input;
  const origin =
    triggerId !== undefined
      ? await (await import('./trigger-origin.ts')).originOfTrigger(scope, graph, triggerId)
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
