import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import {
  CreateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { TABLE_INDEXES, TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '#lib/store/table-schema.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './local-aws.ts';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: object) => import('node:net').Server;

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  close(): Promise<void>;
}

/** The embedded DynamoDB-API server: in memory, or persisted under `path` so a restart keeps the data. */
export const startDynamo = async (path: string | undefined): Promise<LocalDynamo> => {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(path && { path }) });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  return {
    endpoint,
    client,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};

const attribute = (name: string) => ({ AttributeName: name, AttributeType: 'S' as const });

/** Creates the table with the stack's key schema and indexes unless a previous run already did. */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const indexes: GlobalSecondaryIndex[] = TABLE_INDEXES.map((index) => ({
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  }));
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' },
          { AttributeName: TABLE_SORT_KEY, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          attribute(TABLE_PARTITION_KEY),
          attribute(TABLE_SORT_KEY),
          ...TABLE_INDEXES.flatMap((index) => [attribute(index.partitionKey), attribute(index.sortKey)]),
        ],
        GlobalSecondaryIndexes: indexes,
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
};
