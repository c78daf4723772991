import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { incidentChildPartition } from '#lib/incidents/incident-item.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { isConditionFailure } from '#lib/store/store-errors.ts';
import { SIGNAL_LINK_SORT_PREFIX, signalLinkFromItem, signalLinkItemKey, signalLinkToItem, type SignalLink } from './signal-link-item.ts';

/** Stores the link; false when it already exists (a repeated delivery), so its side effects run once. */
export const insertSignalLink = async (table: Table, workspaceId: string, link: SignalLink): Promise<boolean> => {
  try {
    await table.doc.send(
      new PutCommand({ TableName: table.name, Item: signalLinkToItem(workspaceId, link), ConditionExpression: 'attribute_not_exists(sk)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export const deleteSignalLink = async (table: Table, workspaceId: string, incidentId: string, signalId: string): Promise<void> => {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: signalLinkItemKey(workspaceId, incidentId, signalId) }));
};

/** The links of an incident, by signal id: the order signals were received in. */
export const listSignalLinks = async (table: Table, workspaceId: string, incidentId: string): Promise<SignalLink[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': incidentChildPartition(workspaceId, incidentId), ':prefix': SIGNAL_LINK_SORT_PREFIX },
  });
  return items.map((item) => signalLinkFromItem(workspaceId, item));
};
