import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import type { Page } from '#lib/store/pages.ts';
import { type Analysis, type AnalysisReport, type AnalysisView, analysisView, isAnalysisId } from './analysis.ts';
import { analysisRepository } from './analysis-repository.ts';
import { reportContent } from './report-content.ts';
import type { ListAnalysesInput, ReportInput } from './schemas.ts';

export const listAnalyses = async (
  { ports: { table }, workspaceId }: Scope,
  { status, page, limit, cursor }: ListAnalysesInput,
): Promise<Page<AnalysisView>> => {
  const found = await analysisRepository(table, workspaceId).queryAnalyses(status, { page, limit, cursor });
  return { ...found, items: found.items.map(analysisView) };
};

export interface LatestAnalysis extends AnalysisView {
  reports: AnalysisReport[];
  evidence: EvidenceItem[];
}

/** The incident's latest COMPLETE analysis with its reports and evidence; 404 when it has none. */
export const latestAnalysis = async (scope: Scope, incidentId: string): Promise<LatestAnalysis> => {
  const incident = await findIncident(scope, incidentId, 'incidentId');
  const analyses = analysisRepository(scope.ports.table, scope.workspaceId);
  const analysis = await analyses.latestOfIncident(incident.id, 'COMPLETE');
  if (!analysis) {
    throw new NotFoundError('No completed analysis for this incident', [
      `incidentId: ${incident.id} has no completed analysis`,
    ]);
  }
  const { evidence, reports } = await analyses.readAnalysisChildren(analysis.analysisId);
  return { ...analysisView(analysis), reports, evidence: evidence?.items ?? [] };
};

const findAnalysisOr404 = async (
  analyses: ReturnType<typeof analysisRepository>,
  analysisId: string,
): Promise<Analysis> => {
  const analysis = isAnalysisId(analysisId) ? await analyses.findAnalysis(analysisId) : undefined;
  if (!analysis)
    throw new NotFoundError('Analysis not found', [`analysisId: no analysis ${analysisId} in this workspace`]);
  return analysis;
};

/** One analysis as it stands, whatever its status: what a client that started it polls until it ends. */
export const getAnalysis = async ({ ports, workspaceId }: Scope, analysisId: string): Promise<AnalysisView> =>
  analysisView(await findAnalysisOr404(analysisRepository(ports.table, workspaceId), analysisId));

/** A report of a COMPLETE analysis for its audience, stored beside it. */
export const generateReport = async (scope: Scope, { analysisId, audience }: ReportInput): Promise<AnalysisReport> => {
  const { ports, workspaceId } = scope;
  const analyses = analysisRepository(ports.table, workspaceId);
  const analysis = await findAnalysisOr404(analyses, analysisId);
  if (analysis.status !== 'COMPLETE') {
    throw new ConflictError(`The analysis is ${analysis.status}`, [`analysisId: ${analysisId} is not COMPLETE`]);
  }
  const evidence = await analyses.findEvidence(analysisId);
  if (!evidence) throw new Error(`the evidence of analysis ${analysisId} is missing`);
  // The incident may have moved on (resolved) since its analysis: the report says so rather than repeat old news.
  const incident = await findIncident(scope, analysis.incidentId);
  const now = { status: incident.status, resolvedAt: incident.resolvedAt ?? null };
  const report: AnalysisReport = {
    reportId: ports.ids.sortable(),
    analysisId,
    audience,
    content: reportContent(audience, analysis, evidence, now),
    generatedAt: ports.clock.now().toISOString(),
  };
  await analyses.insertReport(report);
  return report;
};
