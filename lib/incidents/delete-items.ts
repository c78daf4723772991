import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '#lib/store/table.ts';

const BATCH_SIZE = 25;
const MAX_ATTEMPTS = 8;

type Key = Record<string, unknown>;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Deletes items by key, 25 per BatchWriteItem, sending `UnprocessedItems` again with a growing pause. */
export const deleteItems = async (table: Table, keys: readonly Key[]): Promise<void> => {
  for (let start = 0; start < keys.length; start += BATCH_SIZE) {
    let requests = keys.slice(start, start + BATCH_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 1; requests.length > 0; attempt += 1) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`${requests.length} deletes stayed unprocessed`);
      if (attempt > 1) await pause(25 * 2 ** attempt);
      const { UnprocessedItems } = await table.doc.send(
        new BatchWriteCommand({ RequestItems: { [table.name]: requests } }),
      );
      requests = (UnprocessedItems?.[table.name] ?? []) as typeof requests;
    }
  }
};
