import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Item, Key } from './items.ts';
import type { Table } from './table.ts';

const GET_BATCH = 100;
const WRITE_BATCH = 25;
const MAX_ATTEMPTS = 8;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** DynamoDB may leave part of a batch unprocessed under load; it is sent again with a growing pause. */
const untilProcessed = async <R>(first: R[], send: (requests: R[]) => Promise<R[]>): Promise<void> => {
  let requests = first;
  for (let attempt = 1; requests.length > 0; attempt += 1) {
    if (attempt > MAX_ATTEMPTS) throw new Error(`${requests.length} batch requests stayed unprocessed`);
    if (attempt > 1) await pause(25 * 2 ** attempt);
    requests = await send(requests);
  }
};

const chunks = <T>(values: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(values.length / size) }, (_value, index) =>
    values.slice(index * size, (index + 1) * size),
  );

/** The items of `keys` that exist, strongly consistent, in no particular order. */
export const batchGetItems = async (table: Table, keys: readonly Key[]): Promise<Item[]> => {
  const found: Item[] = [];
  for (const chunk of chunks(keys, GET_BATCH)) {
    await untilProcessed<Key>(chunk, async (Keys) => {
      const { Responses, UnprocessedKeys } = await table.doc.send(
        new BatchGetCommand({ RequestItems: { [table.name]: { Keys, ConsistentRead: true } } }),
      );
      found.push(...(Responses?.[table.name] ?? []));
      return (UnprocessedKeys?.[table.name]?.Keys ?? []) as Key[];
    });
  }
  return found;
};

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

const batchWrite = async (table: Table, requests: readonly WriteRequest[]): Promise<void> => {
  for (const chunk of chunks(requests, WRITE_BATCH)) {
    await untilProcessed(chunk, async (batch) => {
      const { UnprocessedItems } = await table.doc.send(
        new BatchWriteCommand({ RequestItems: { [table.name]: batch } }),
      );
      return (UnprocessedItems?.[table.name] ?? []) as WriteRequest[];
    });
  }
};

/** Writes items, 25 per request; not atomic: a failure part-way leaves the earlier chunks written. */
export const batchPutItems = (table: Table, items: readonly Item[]): Promise<void> =>
  batchWrite(
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
  );

/** Deletes items by key, 25 per request; a key that does not exist is no error. */
export const batchDeleteItems = (table: Table, keys: readonly Key[]): Promise<void> =>
  batchWrite(
    table,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
