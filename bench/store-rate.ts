import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo } from '#infra/local/dynamo-server.ts';
import { runConcurrently, type Rate } from './load.ts';

/**
 * The embedded store's own speed: PutItem of signal-sized items on dynalite on disk, as the local stack
 * runs it, with the same number of requests in flight as the paths measured against it.
 */
export const rawPutRate = async (dataDir: string, total: number, inFlight: number): Promise<Rate> => {
  const dynamo = await startDynamo(dataDir);
  await ensureTable(dynamo.client, 'raw');
  const payload = 'x'.repeat(600);
  try {
    return await runConcurrently(total, inFlight, (index) =>
      dynamo.client.send(
        new PutItemCommand({
          TableName: 'raw',
          Item: { pk: { S: `WS#bench#SIGNAL` }, sk: { S: `raw-${index}` }, payload: { S: payload } },
        }),
      ),
    );
  } finally {
    await dynamo.close();
  }
};
