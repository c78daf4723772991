import type { Scope } from '#lib/identity/scope.ts';
import { recountReports } from './blast-report-repository.ts';
import { type ServiceRisk, rewriteServiceRisks } from './service-risk-repository.ts';

/**
 * The counter recount's part for blast radius (docs/data-model.md 6): the report counter and every
 * service's running risk sums, both recomputed from the stored reports, since each is ADDed after its
 * report was written and a crash in between leaves it short. Answers how many reports it read.
 */
export const recountBlastReports = async ({ ports: { table }, workspaceId }: Scope): Promise<number> => {
  const reports = await recountReports(table, workspaceId);
  const risks = new Map<string, ServiceRisk>();
  for (const { affectedServices, calculatedAt } of reports) {
    for (const { serviceId, name, riskScore } of affectedServices) {
      const risk = risks.get(serviceId) ?? { serviceId, name, scoreSum: 0, reports: 0, lastCalculatedAt: calculatedAt };
      const newer = calculatedAt >= risk.lastCalculatedAt;
      risks.set(serviceId, {
        serviceId,
        name: newer ? name : risk.name,
        scoreSum: risk.scoreSum + riskScore,
        reports: risk.reports + 1,
        lastCalculatedAt: newer ? calculatedAt : risk.lastCalculatedAt,
      });
    }
  }
  await rewriteServiceRisks(table, workspaceId, [...risks.values()]);
  return reports.length;
};
