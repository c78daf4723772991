import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import type { PipelineRunSummary } from './pipeline-run.ts';
import { runPartition, runSummaryFromItem } from './pipeline-run-item.ts';

/**
 * Pipeline runs by start time, for readers outside ingestion (the analysis engine): kept apart from
 * pipeline-run-repository so the ingestion path's bundle does not carry it.
 */
export const runWindowRepository = (table: Table, workspaceId: string) => {
  /** Runs started in `[from, to]` (ISO instants), oldest first: one range of the all-runs index (gsi3). */
  const runsStartedBetween = async (from: string, to: string): Promise<PipelineRunSummary[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': runPartition(workspaceId), ':from': from, ':to': `${to}~` },
    });
    return items.map((item) => runSummaryFromItem(item, workspaceId));
  };
  return { runsStartedBetween };
};
