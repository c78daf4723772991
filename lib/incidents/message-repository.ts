import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '#lib/ports/clock.ts';
import type { Ids } from '#lib/ports/ids.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { incidentChildPartition } from './incident-item.ts';
import { MESSAGE_SORT_PREFIX, messageFromItem, messageToItem, type IncidentMessage } from './message-item.ts';

export type MessageInput = Pick<IncidentMessage, 'kind' | 'text' | 'actor'>;

/**
 * Adds messages to an incident's thread. Messages of one call share a time and get increasing ids
 * (monotonic ULIDs), so the thread shows them in the order given.
 */
export const recordMessages = async (
  { table, clock, ids }: { table: Table; clock: Clock; ids: Ids },
  workspaceId: string,
  incidentId: string,
  inputs: readonly MessageInput[],
): Promise<IncidentMessage[]> => {
  const createdAt = clock.now().toISOString();
  const messages = inputs.map(
    (input): IncidentMessage => ({ id: ids.sortable(), ticketId: incidentId, ...input, createdAt }),
  );
  await Promise.all(
    messages.map((message) =>
      table.doc.send(
        new PutCommand({
          TableName: table.name,
          Item: messageToItem(workspaceId, message),
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      ),
    ),
  );
  return messages;
};

/** The thread of an incident, oldest first. */
export const listMessages = async (
  table: Table,
  workspaceId: string,
  incidentId: string,
): Promise<IncidentMessage[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': incidentChildPartition(workspaceId, incidentId),
      ':prefix': MESSAGE_SORT_PREFIX,
    },
    ScanIndexForward: true,
  });
  return items.map((item) => messageFromItem(workspaceId, item));
};
