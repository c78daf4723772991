import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Item } from './items.ts';
import type { Table } from './table.ts';

export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select'>;

/** Every item of a key condition, following `LastEvaluatedKey`: for lists the spec does not page. */
export const queryAll = async (table: Table, input: QueryInput): Promise<Item[]> => {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
};

/** The first item of a key condition in its order, or undefined: a page of one (no filter may follow the limit). */
export const queryFirst = async (
  table: Table,
  input: Omit<QueryInput, 'Limit' | 'FilterExpression'>,
): Promise<Item | undefined> =>
  (await table.doc.send(new QueryCommand({ ...input, TableName: table.name, Limit: 1 }))).Items?.[0];

/** A `Select: COUNT` over the whole key condition: for lists whose total no counter keeps (a date range). */
export const countAll = async (table: Table, input: QueryInput): Promise<number> => {
  let total = 0;
  let startKey: Item | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({ ...input, TableName: table.name, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    total += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return total;
};
