import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Table } from './table.ts';

/** One page of a list, and how many items the whole list has. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** A page of a list, counted from 1. */
export interface PageRequest {
  page: number;
  limit: number;
}

export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select'>;

type Item = Record<string, unknown>;

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

const countAll = async (table: Table, input: QueryInput): Promise<number> => {
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

/** The items of one page, skipping the matches of the pages before it. */
const readPage = async (table: Table, input: QueryInput, { page, limit }: PageRequest): Promise<Item[]> => {
  let skip = (page - 1) * limit;
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const result = await table.doc.send(
      new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }),
    );
    for (const item of result.Items ?? []) {
      if (skip > 0) skip -= 1;
      else if (items.length < limit) items.push(item);
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
};

/**
 * Offset pagination over a key condition (docs/data-model.md section 4): a COUNT query for `total` and
 * a read of the requested page, in parallel.
 */
export const queryPage = async <T>(
  table: Table,
  input: QueryInput,
  request: PageRequest,
  read: (item: Item) => T,
): Promise<Page<T>> => {
  const [items, total] = await Promise.all([readPage(table, input, request), countAll(table, input)]);
  return { items: items.map(read), total };
};
