import type { Evidence } from '#lib/ports/reasoner/evidence.ts';
import type { Hypothesis, ImpactAssessment, RemediationPlan } from '#lib/ports/reasoner/reasoner.ts';
import { putItem, putNew, updateIf } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { queryAll } from '#lib/store/queries.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import { setFields } from '#lib/store/set-fields.ts';
import type { Table } from '#lib/store/table.ts';
import type { Analysis, AnalysisReport, AnalysisStage, AnalysisStatus } from './analysis.ts';
import {
  ANALYSIS_COUNTER,
  analysisChildPartition,
  analysisPartition,
  analysisStatusPartition,
  incidentAnalysisPartition,
} from '#lib/incidents/analysis-item.ts';
import { countListWrite, readCountedTotal } from '#lib/store/list-counters.ts';

/**
 * ANALYSIS items (docs/data-model.md 5.15): base `{W}#ANALYSIS` / `<analysisId>`, gsi1 by status, gsi2 the
 * incident's analyses by `<status>#<analysisId>`. Each analysis's evidence and reports are in its own
 * partition `{W}#ANALYSIS#<analysisId>`, so the list partition holds small items.
 */
const analysisKey = (workspaceId: string, analysisId: string) => ({
  pk: analysisPartition(workspaceId),
  sk: analysisId,
});
const evidenceKey = (workspaceId: string, analysisId: string) => ({
  pk: analysisChildPartition(workspaceId, analysisId),
  sk: 'EVIDENCE',
});

const statusKeys = (workspaceId: string, analysis: Pick<Analysis, 'analysisId' | 'incidentId' | 'status'>) => ({
  gsi1pk: analysisStatusPartition(workspaceId, analysis.status),
  gsi1sk: analysis.analysisId,
  gsi2pk: incidentAnalysisPartition(workspaceId, analysis.incidentId),
  gsi2sk: `${analysis.status}#${analysis.analysisId}`,
});

/** The spec's fields flat, as the PDF export reads them, beside each stage's whole result with its citations. */
const resultFields = (
  results: Partial<Pick<Analysis, 'asOf' | 'hypothesisResult' | 'impactResult' | 'remediationResult'>>,
) => ({
  ...(results.asOf && { asOf: results.asOf }),
  ...(results.hypothesisResult && {
    hypothesisResult: results.hypothesisResult,
    hypothesis: results.hypothesisResult.hypothesis.text,
    rootCause: results.hypothesisResult.rootCause.text,
    confidence: results.hypothesisResult.confidence,
  }),
  ...(results.impactResult && {
    impactResult: results.impactResult,
    impactAssessment: results.impactResult.impactAssessment.text,
    contributingFactors: results.impactResult.contributingFactors.map((claim) => claim.text),
  }),
  ...(results.remediationResult && {
    remediationResult: results.remediationResult,
    remediationOptions: results.remediationResult.remediationOptions.map((claim) => claim.text),
  }),
});

const analysisFromItem = (item: Record<string, unknown>, workspaceId: string): Analysis => {
  if (item.workspaceId !== workspaceId) throw new Error('an analysis of another workspace was read');
  return {
    analysisId: String(item.analysisId),
    incidentId: String(item.incidentId),
    status: item.status as AnalysisStatus,
    stage: item.stage as Analysis['stage'],
    estimatedCompletionSeconds: Number(item.estimatedCompletionSeconds),
    createdAt: String(item.createdAt),
    asOf: typeof item.asOf === 'string' ? item.asOf : null,
    completedAt: typeof item.completedAt === 'string' ? item.completedAt : null,
    failureReason: typeof item.failureReason === 'string' ? item.failureReason : null,
    hypothesisResult: (item.hypothesisResult as Hypothesis | undefined) ?? null,
    impactResult: (item.impactResult as ImpactAssessment | undefined) ?? null,
    remediationResult: (item.remediationResult as RemediationPlan | undefined) ?? null,
  };
};

const reportFromItem = (item: Record<string, unknown>): AnalysisReport => ({
  reportId: String(item.reportId),
  analysisId: String(item.analysisId),
  audience: item.audience as AnalysisReport['audience'],
  content: String(item.content),
  generatedAt: String(item.generatedAt),
});

const PROCESSING = { ConditionExpression: '#status = :processing', processing: { ':processing': 'PROCESSING' } };

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const analysisRepository = (table: Table, workspaceId: string) => {
  const insertAnalysis = async (analysis: Analysis): Promise<void> => {
    await putNew(table, {
      ...analysisKey(workspaceId, analysis.analysisId),
      ...statusKeys(workspaceId, analysis),
      type: 'ANALYSIS',
      workspaceId,
      ...analysis,
    });
    await countListWrite(table, workspaceId, ANALYSIS_COUNTER, undefined, { status: analysis.status });
  };

  const findAnalysis = (analysisId: string): Promise<Analysis | undefined> =>
    findItem(table, analysisKey(workspaceId, analysisId), (item) => analysisFromItem(item, workspaceId));

  /** A stage's results, while the analysis is PROCESSING: false once it has finished (a late retry writes nothing). */
  const writeStageResult = async (
    analysisId: string,
    stage: AnalysisStage,
    results: Partial<Pick<Analysis, 'asOf' | 'hypothesisResult' | 'impactResult' | 'remediationResult'>>,
  ): Promise<boolean> => {
    const set = setFields({ ...resultFields(results), stage });
    const written = await updateIf(table, analysisKey(workspaceId, analysisId), {
      ...set,
      ConditionExpression: PROCESSING.ConditionExpression,
      ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ...PROCESSING.processing },
    });
    return written !== undefined;
  };

  /** PROCESSING to COMPLETE or FAILED, once: undefined when it had already finished. */
  const finishAnalysis = async (
    analysisId: string,
    finish: { status: Exclude<AnalysisStatus, 'PROCESSING'>; stage: AnalysisStage; at: string; failureReason?: string },
  ): Promise<Analysis | undefined> => {
    const current = await findAnalysis(analysisId);
    if (!current) return undefined;
    const set = setFields({
      status: finish.status,
      stage: finish.stage,
      completedAt: finish.at,
      failureReason: finish.failureReason,
      ...statusKeys(workspaceId, { ...current, status: finish.status }),
    });
    const written = await updateIf(table, analysisKey(workspaceId, analysisId), {
      ...set,
      ConditionExpression: PROCESSING.ConditionExpression,
      ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ...PROCESSING.processing },
    });
    if (!written) return undefined;
    await countListWrite(table, workspaceId, ANALYSIS_COUNTER, { status: 'PROCESSING' }, { status: finish.status });
    return analysisFromItem(written, workspaceId);
  };

  /** Newest first (ULIDs), by status through gsi1; the total is the counter's. */
  const queryAnalyses = (status: AnalysisStatus | undefined, page: PageRequest): Promise<Page<Analysis>> =>
    queryPage(
      table,
      {
        ...(status
          ? { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk' }
          : { KeyConditionExpression: 'pk = :pk' }),
        ExpressionAttributeValues: {
          ':pk': status ? analysisStatusPartition(workspaceId, status) : analysisPartition(workspaceId),
        },
        ScanIndexForward: false,
      },
      page,
      (item) => analysisFromItem(item, workspaceId),
      () => readCountedTotal(table, workspaceId, ANALYSIS_COUNTER, { status }),
    );

  /** The incident's newest analysis in a status: one item of its gsi2 range. */
  const latestOfIncident = async (incidentId: string, status: AnalysisStatus): Promise<Analysis | undefined> => {
    const page = await queryPage(
      table,
      {
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :status)',
        ExpressionAttributeValues: {
          ':pk': incidentAnalysisPartition(workspaceId, incidentId),
          ':status': `${status}#`,
        },
        ScanIndexForward: false,
      },
      { page: 1, limit: 1 },
      (item) => analysisFromItem(item, workspaceId),
      async () => 0,
    );
    return page.items[0];
  };

  const putEvidence = async (analysisId: string, evidence: Evidence): Promise<void> => {
    await putItem(table, { ...evidenceKey(workspaceId, analysisId), type: 'ANALYSIS_EVIDENCE', workspaceId, evidence });
  };

  const findEvidence = (analysisId: string): Promise<Evidence | undefined> =>
    findItem(table, evidenceKey(workspaceId, analysisId), (item) => item.evidence as Evidence);

  const insertReport = async (report: AnalysisReport): Promise<void> => {
    await putNew(table, {
      pk: analysisChildPartition(workspaceId, report.analysisId),
      sk: `REPORT#${report.reportId}`,
      type: 'ANALYSIS_REPORT',
      workspaceId,
      ...report,
    });
  };

  /** The analysis's evidence and its reports, oldest report first: one Query of its own partition. */
  const readAnalysisChildren = async (
    analysisId: string,
  ): Promise<{ evidence?: Evidence; reports: AnalysisReport[] }> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': analysisChildPartition(workspaceId, analysisId) },
    });
    return {
      evidence: items.find((item) => item.sk === 'EVIDENCE')?.evidence as Evidence | undefined,
      reports: items.filter((item) => String(item.sk).startsWith('REPORT#')).map(reportFromItem),
    };
  };

  return {
    insertAnalysis,
    findAnalysis,
    writeStageResult,
    finishAnalysis,
    queryAnalyses,
    latestOfIncident,
    putEvidence,
    findEvidence,
    insertReport,
    readAnalysisChildren,
  };
};
