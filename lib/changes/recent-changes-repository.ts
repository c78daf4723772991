import { assertOfWorkspace, storedFields } from '#lib/store/item-values.ts';
import { textOrNull } from '#lib/store/item-values.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { ticketListPartition } from '#lib/tickets/ticket-item.ts';
import type { Change } from './change.ts';

const changeFromItem = (item: Record<string, unknown>, workspaceId: string): Change => {
  assertOfWorkspace(item, workspaceId, `change ${String(item.id)}`);
  return {
    ...storedFields<Change>()(item, [
      'id',
      'provider',
      'summary',
      'status',
      'environment',
      'repository',
      'createdAt',
      'providerUpdatedAt',
    ]),
    // A change stored before arrivals were kept was placed at its arrival, except EventBridge's.
    receivedAt: String(item.receivedAt ?? item.createdAt),
    commitSha: textOrNull(item.commitSha),
    deployer: textOrNull(item.assignedToEmail),
  };
};

/**
 * Changes by time window, for engines looking for what changed before an incident. Apart from
 * change-repository.ts so that ingestion, which writes changes, does not load it.
 */
export const recentChangesRepository = (table: Table, workspaceId: string) => {
  /**
   * Changes that happened in `[from, to]` (`createdAt`: the provider's time, however late its webhook came),
   * newest first: the unified ticket index (gsi3) sorts by `<createdAt>#<id>`, and the incidents and problems
   * of the window are dropped by a filter (the window keeps them few).
   */
  const listChangesHappenedBetween = async (from: string, to: string): Promise<Change[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk BETWEEN :from AND :to',
      FilterExpression: '#type = :change',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':pk': ticketListPartition(workspaceId),
        ':from': from,
        ':to': `${to}~`,
        ':change': 'CHANGE',
      },
      ScanIndexForward: false,
    });
    return items.map((item) => changeFromItem(item, workspaceId));
  };
  return { listChangesHappenedBetween };
};
