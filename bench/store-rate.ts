import { type AttributeValue, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo } from '#infra/local/dynamo-server.ts';
import { TABLE_INDEXES } from '#lib/store/table-schema.ts';
import { runConcurrently, type Rate } from './load.ts';

/**
 * An item's attributes that put it in every index of the table, as a signal is in its status, source,
 * severity, service and pending-correlation indexes.
 */
const inEveryIndex = (sortKey: string): Record<string, AttributeValue> =>
  Object.fromEntries(
    TABLE_INDEXES.flatMap(({ indexName, partitionKey, sortKey: indexSortKey }) => [
      [partitionKey, { S: `WS#bench#${indexName}` }],
      [indexSortKey, { S: sortKey }],
    ]),
  );

/**
 * The embedded store's own speed: PutItem of signal-sized items on dynalite on disk, as the local stack
 * runs it, with the same number of requests in flight as the paths measured against it. `indexed` puts
 * each item in every index of the table too.
 */
export const rawPutRate = async (
  dataDir: string,
  total: number,
  inFlight: number,
  { indexed = false } = {},
): Promise<Rate> => {
  const dynamo = await startDynamo(dataDir);
  await ensureTable(dynamo.client, 'raw');
  const payload = 'x'.repeat(600);
  try {
    return await runConcurrently(total, inFlight, (index) => {
      const sortKey = `raw-${index}`;
      return dynamo.client.send(
        new PutItemCommand({
          TableName: 'raw',
          Item: {
            pk: { S: `WS#bench#SIGNAL` },
            sk: { S: sortKey },
            payload: { S: payload },
            ...(indexed && inEveryIndex(sortKey)),
          },
        }),
      );
    });
  } finally {
    await dynamo.close();
  }
};
