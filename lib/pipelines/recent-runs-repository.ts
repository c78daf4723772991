import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import type { PipelineRunSummary } from './pipeline-run.ts';
import { runPartition, runSummaryFromItem } from './pipeline-run-item.ts';

/**
 * Runs by time window, for engines looking for what changed before an incident. Apart from
 * pipeline-run-repository.ts so that ingestion, which writes runs, does not load it.
 */
export const recentRunsRepository = (table: Table, workspaceId: string) => {
  /** Runs that started in `[from, to]`, newest first: the all-runs index (gsi3) sorts by `<startedAt>#<runId>`. */
  const listRunsStartedBetween = async (from: string, to: string): Promise<PipelineRunSummary[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': runPartition(workspaceId), ':from': from, ':to': `${to}~` },
      ScanIndexForward: false,
    });
    return items.map((item) => runSummaryFromItem(item, workspaceId));
  };
  return { listRunsStartedBetween };
};
