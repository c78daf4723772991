import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * Counts one ingested event in the workspace's METRIC_HOUR rollup (docs/data-model.md 5.16), the hour of
 * receipt in UTC, which the dashboard sums into its buckets. An unconditional ADD: every event counts,
 * merged or not.
 */
export const countIngestedSignal = async (table: Table, workspaceId: string, receivedAt: Date): Promise<void> => {
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { pk: workspaceKey(workspaceId, 'METRIC'), sk: `HOUR#${receivedAt.toISOString().slice(0, 13)}` },
      UpdateExpression: 'ADD signalsIngested :one SET #type = :type, workspaceId = :workspaceId',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'METRIC_HOUR', ':workspaceId': workspaceId },
    }),
  );
};
