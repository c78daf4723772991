import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item, Key } from './items.ts';
import type { Table } from './table.ts';

/**
 * Adds each delta to its attribute of one item with a single unconditional `ADD` (creating the item and
 * the attributes at zero when absent), sets `fields` beside them, and answers the item as written.
 * Concurrent additions never lose each other, which is why counters are kept this way.
 */
export const addToCounters = async (
  table: Table,
  key: Key,
  deltas: Record<string, number>,
  fields: Record<string, unknown> = {},
): Promise<Item> => {
  const added = Object.entries(deltas);
  const set = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (added.length === 0) throw new Error('addToCounters needs at least one delta');
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: key,
      UpdateExpression: [
        `ADD ${added.map((_entry, index) => `#a${index} :a${index}`).join(', ')}`,
        ...(set.length > 0 ? [`SET ${set.map((_entry, index) => `#s${index} = :s${index}`).join(', ')}`] : []),
      ].join(' '),
      ExpressionAttributeNames: {
        ...Object.fromEntries(added.map(([name], index) => [`#a${index}`, name])),
        ...Object.fromEntries(set.map(([name], index) => [`#s${index}`, name])),
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(added.map(([, value], index) => [`:a${index}`, value])),
        ...Object.fromEntries(set.map(([, value], index) => [`:s${index}`, value])),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes ?? {};
};
