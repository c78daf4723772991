import { putIf } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * ANALYSIS_TIMING (`{W}#ANALYSIS#STATS` / `DURATION`): the rolling average of how long an analysis takes
 * from request to completion, the source of `estimatedCompletionSeconds`.
 */
const timingKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId, 'ANALYSIS', 'STATS'), sk: 'DURATION' });

/** The estimate before any analysis of the workspace has finished (docs/analysis.md). */
const DEFAULT_ESTIMATE_SECONDS = 30;
/** Weight of the newest run in the exponential moving average: recent runs count most. */
const NEWEST_WEIGHT = 0.3;
const ATTEMPTS = 3;

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const analysisTimingRepository = (table: Table, workspaceId: string) => {
  /** Whole seconds, at least one. */
  const estimateSeconds = async (): Promise<number> => {
    const item = await getItem(table, timingKey(workspaceId), false);
    const average = typeof item?.averageSeconds === 'number' ? item.averageSeconds : DEFAULT_ESTIMATE_SECONDS;
    return Math.max(1, Math.ceil(average));
  };

  /**
   * Folds one run's duration into the average, read-modify-write on `rev`; after three conflicts the sample
   * is dropped, since concurrent finishes only make one estimate a little staler.
   */
  const recordDuration = async (seconds: number, at: string): Promise<boolean> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const item = await getItem(table, timingKey(workspaceId));
      const rev = typeof item?.rev === 'number' ? item.rev : 0;
      const previous = typeof item?.averageSeconds === 'number' ? item.averageSeconds : undefined;
      const averageSeconds = previous === undefined ? seconds : previous + NEWEST_WEIGHT * (seconds - previous);
      const written = await putIf(
        table,
        {
          ...timingKey(workspaceId),
          type: 'ANALYSIS_TIMING',
          workspaceId,
          averageSeconds: Math.round(averageSeconds * 1000) / 1000,
          samples: (typeof item?.samples === 'number' ? item.samples : 0) + 1,
          updatedAt: at,
          rev: rev + 1,
        },
        item
          ? { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': rev } }
          : { ConditionExpression: 'attribute_not_exists(pk)' },
      );
      if (written) return true;
    }
    return false;
  };
  return { estimateSeconds, recordDuration };
};
