import { addToCounters } from '#lib/store/counters.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * Counts one ingested event in the workspace's METRIC_HOUR rollup (docs/data-model.md 5.16), the hour of
 * receipt in UTC, which the dashboard sums into its buckets. An unconditional ADD: every event counts,
 * merged or not.
 */
export const countIngestedSignal = async (table: Table, workspaceId: string, receivedAt: Date): Promise<void> => {
  await addToCounters(
    table,
    { pk: workspaceKey(workspaceId, 'METRIC'), sk: `HOUR#${receivedAt.toISOString().slice(0, 13)}` },
    { signalsIngested: 1 },
    { type: 'METRIC_HOUR', workspaceId },
  );
};
