import { ulidFloor } from '#lib/ports/ids.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { type SignalSummary, signalSummary } from './signal.ts';
import { signalFromItem, signalPartition } from './signal-item.ts';

/**
 * Signals by time of receipt, for readers outside ingestion (the analysis engine): kept apart from
 * signal-repository so the ingestion path's bundle does not carry it.
 */
export const signalWindowRepository = (table: Table, workspaceId: string) => {
  /**
   * Signals received in `[from, to)`, oldest first, as summaries: one range of the base partition, whose
   * ULID keys sort by receipt, so the window bounds what is read however many signals the workspace has.
   */
  const signalsReceivedBetween = async (from: Date, to: Date): Promise<SignalSummary[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': signalPartition(workspaceId),
        ':from': ulidFloor(from),
        ':to': ulidFloor(to),
      },
    });
    return items.map((item) => signalSummary(signalFromItem(item, workspaceId)));
  };
  return { signalsReceivedBetween };
};
