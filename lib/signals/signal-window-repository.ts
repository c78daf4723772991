import { ulidFloor } from '#lib/ports/ids.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { type SignalOrigin, type SignalSummary, signalSummary } from './signal.ts';
import { signalFromItem, signalPartition } from './signal-item.ts';

const RECORD: SignalOrigin = 'record';

/**
 * Signals by time of receipt, for readers outside ingestion (the analysis engine): kept apart from
 * signal-repository so the ingestion path's bundle does not carry it.
 */
export const signalWindowRepository = (table: Table, workspaceId: string) => {
  /**
   * Alerts received in `[from, to)`, oldest first, as summaries: one range of the base partition, whose ULID
   * keys sort by receipt, so the window bounds what is read however many signals the workspace has. Informational
   * records (a successful deploy or run, a push) are left out: they say something happened, not that something
   * is wrong, and what they record is a change of its own (a CHANGE ticket, a pipeline run).
   */
  const alertsReceivedBetween = async (from: Date, to: Date): Promise<SignalSummary[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      FilterExpression: 'attribute_not_exists(#origin) OR #origin <> :record',
      ExpressionAttributeNames: { '#origin': 'origin' },
      ExpressionAttributeValues: {
        ':pk': signalPartition(workspaceId),
        ':from': ulidFloor(from),
        ':to': ulidFloor(to),
        ':record': RECORD,
      },
    });
    return items.map((item) => signalSummary(signalFromItem(item, workspaceId)));
  };
  return { alertsReceivedBetween };
};
