import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Page } from '#lib/store/pages.ts';
import { type BlastReport, isUlid } from './blast-report.ts';
import { blastReportRepository } from './blast-report-repository.ts';
import { tierOf } from './risk-model.ts';
import type { ListReportsInput } from './schemas.ts';
import { serviceRiskRepository } from './service-risk-repository.ts';

export const listReports = (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, serviceId, environment }: ListReportsInput,
): Promise<Page<BlastReport>> =>
  blastReportRepository(table, workspaceId).queryReports({ serviceId, environment }, { page, limit, cursor });

export const getReport = async ({ ports: { table }, workspaceId }: Scope, reportId: string): Promise<BlastReport> => {
  const report = isUlid(reportId) ? await blastReportRepository(table, workspaceId).findReport(reportId) : undefined;
  if (!report) throw new NotFoundError('Blast-radius report not found');
  return report;
};

/** A trigger without reports answers an empty list: the id may name a signal or incident not yet analysed. */
export const listTriggerReports = (
  { ports: { table }, workspaceId }: Scope,
  triggerId: string,
): Promise<BlastReport[]> => blastReportRepository(table, workspaceId).reportsOfTrigger(triggerId);

export interface RiskSummary {
  totalServicesAnalysed: number;
  highRiskServices: { serviceId: string; name: string; averageRiskScore: number }[];
  riskDistribution: { high: number; medium: number; low: number };
  lastUpdated: string | null;
}

/** Each service's average over every report that scored it, from the running sums: one Query. */
export const getRiskSummary = async ({ ports: { table }, workspaceId }: Scope): Promise<RiskSummary> => {
  const risks = await serviceRiskRepository(table, workspaceId).readRisks();
  const averaged = risks
    .filter((risk) => risk.reports > 0)
    .map((risk) => ({
      serviceId: risk.serviceId,
      name: risk.name,
      averageRiskScore: Math.round((risk.scoreSum / risk.reports) * 100) / 100,
      lastCalculatedAt: risk.lastCalculatedAt,
    }));
  const riskDistribution = { high: 0, medium: 0, low: 0 };
  for (const risk of averaged) riskDistribution[tierOf(risk.averageRiskScore)] += 1;
  return {
    totalServicesAnalysed: averaged.length,
    highRiskServices: averaged
      .filter((risk) => tierOf(risk.averageRiskScore) === 'high')
      .sort((a, b) => b.averageRiskScore - a.averageRiskScore)
      .map(({ serviceId, name, averageRiskScore }) => ({ serviceId, name, averageRiskScore })),
    riskDistribution,
    lastUpdated: averaged.reduce<string | null>(
      (latest, risk) => (latest === null || risk.lastCalculatedAt > latest ? risk.lastCalculatedAt : latest),
      null,
    ),
  };
};
