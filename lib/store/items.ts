import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './table.ts';

/** An item as the document client reads and writes it. */
export type Item = Record<string, unknown>;

/** A primary key: `{ pk, sk }`. */
export type Key = { pk: string; sk: string };

/**
 * One item by key. Strongly consistent by default: reads here decide writes (a claim, a version, a
 * session), and a lagging copy would decide wrongly; pass `false` where an old copy is good enough.
 */
export const getItem = async (table: Table, key: Key, consistent = true): Promise<Item | undefined> =>
  (await table.doc.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: consistent }))).Item;

/** One item by key as `map` reads it, or `undefined` when there is none (consistency as `getItem`). */
export const findItem = async <T>(
  table: Table,
  key: Key,
  map: (item: Item) => T,
  consistent = true,
): Promise<T | undefined> => {
  const item = await getItem(table, key, consistent);
  return item && map(item);
};

/** The primary key of an item read from the table. */
export const keyOf = (item: Item): Key => ({ pk: String(item.pk), sk: String(item.sk) });
