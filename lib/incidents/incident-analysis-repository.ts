import { queryAll, queryFirst } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { batchDeleteItems } from '#lib/store/batch.ts';
import { keyOf } from '#lib/store/items.ts';
import { deleteIfPresent } from '#lib/store/conditional-writes.ts';
import { countListWrite } from '#lib/store/list-counters.ts';
import { ANALYSIS_COUNTER, analysisChildPartition, incidentAnalysisPartition } from './analysis-item.ts';

/**
 * The analysis engine's items that belong to one incident (docs/data-model.md 5.15): ANALYSIS items
 * (`{W}#ANALYSIS` / `<analysisId>`, gsi2 `{W}#INC#<incidentId>#ANALYSIS` / `<status>#<analysisId>`) and
 * their reports (`{W}#ANALYSIS#<analysisId>` / `REPORT#<reportId>`). Read here for the PDF and removed
 * with the incident; the engine itself writes them.
 */
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** What the incident report shows of a completed analysis; `completedAt` is when it was made. */
export interface CompletedAnalysis {
  hypothesis: string;
  rootCause: string;
  impactAssessment: string;
  contributingFactors: string[];
  remediationOptions: string[];
  confidence: number;
  completedAt: string;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const incidentAnalysisRepository = (table: Table, workspaceId: string) => {
  /** The latest COMPLETE analysis of the incident, as the report shows it; undefined if there is none. */
  const latestCompletedAnalysis = async (incidentId: string): Promise<CompletedAnalysis | undefined> => {
    const item = await queryFirst(table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :complete)',
      ExpressionAttributeValues: {
        ':pk': incidentAnalysisPartition(workspaceId, incidentId),
        ':complete': 'COMPLETE#',
      },
      ScanIndexForward: false,
    });
    if (!item) return undefined;
    return {
      hypothesis: String(item.hypothesis ?? ''),
      rootCause: String(item.rootCause ?? ''),
      impactAssessment: String(item.impactAssessment ?? ''),
      contributingFactors: strings(item.contributingFactors),
      remediationOptions: strings(item.remediationOptions),
      confidence: Number(item.confidence ?? 0),
      completedAt: String(item.completedAt ?? ''),
    };
  };

  /**
   * Deletes every analysis of the incident, each one's reports and evidence first, so a retry finds what is
   * left. Each analysis leaves the list counter with the delete that removed it: a delete repeated or racing
   * another finds nothing and counts nothing.
   */
  const deleteIncidentAnalyses = async (incidentId: string): Promise<void> => {
    const analyses = await queryAll(table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': incidentAnalysisPartition(workspaceId, incidentId) },
      ProjectionExpression: 'pk, sk',
    });
    for (const analysis of analyses) {
      const children = await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': analysisChildPartition(workspaceId, String(analysis.sk)) },
        ProjectionExpression: 'pk, sk',
      });
      await batchDeleteItems(table, children.map(keyOf));
      const deleted = await deleteIfPresent(table, keyOf(analysis));
      if (deleted)
        await countListWrite(table, workspaceId, ANALYSIS_COUNTER, { status: String(deleted.status) }, undefined);
    }
  };
  return { latestCompletedAnalysis, deleteIncidentAnalyses };
};
