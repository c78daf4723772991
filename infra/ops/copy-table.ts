import { pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { newAwsClient } from '#lib/ports/aws-client.ts';
import { batchPutItems } from '#lib/store/batch.ts';
import type { Item } from '#lib/store/items.ts';
import { createTable, type Table } from '#lib/store/table.ts';

/**
 * Copies every item of one table into another as it is: a put per item, so the target's item of the same key
 * is replaced and its other items stay. It is the way back from a point-in-time restore, which DynamoDB makes
 * only into a new table, into the table the stack owns (README, "Restoring the table from a point in time").
 * The service itself never scans; this one-off operation, run by hand, is the one place that does.
 */
export const copyTable = async (from: Table, to: Table): Promise<number> => {
  let copied = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await from.doc.send(
      new ScanCommand({ TableName: from.name, ExclusiveStartKey, ConsistentRead: true }),
    );
    const items = (page.Items ?? []) as Item[];
    await batchPutItems(to, items);
    copied += items.length;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return copied;
};

/** `npm run copy-table -- <from> <to>`, with the AWS credentials and region of the environment. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [from, to] = process.argv.slice(2);
  if (!from || !to || from === to) {
    console.error('usage: npm run copy-table -- <source table> <target table>');
    process.exit(2);
  }
  const client = newAwsClient(DynamoDBClient, {});
  const copied = await copyTable(createTable({ name: from, client }), createTable({ name: to, client }));
  console.log(`copied ${copied} items from ${from} to ${to}`);
}
