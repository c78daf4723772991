import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { COMMENT_SORT_PREFIX, commentFromItem, commentToItem, type IncidentComment } from './comment-item.ts';
import { incidentChildPartition } from './incident-item.ts';

export const putComment = async (table: Table, workspaceId: string, comment: IncidentComment): Promise<void> => {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: commentToItem(workspaceId, comment),
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
};

/** Every comment of an incident, oldest first. */
export const listComments = async (
  table: Table,
  workspaceId: string,
  incidentId: string,
): Promise<IncidentComment[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': incidentChildPartition(workspaceId, incidentId),
      ':prefix': COMMENT_SORT_PREFIX,
    },
    ScanIndexForward: true,
  });
  return items.map((item) => commentFromItem(workspaceId, item));
};
