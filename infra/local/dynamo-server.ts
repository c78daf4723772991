import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ScanCommand,
  type AttributeValue,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { TABLE_INDEXES, TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '#lib/store/table-schema.ts';
import { type StandInUsage, startStandInThread } from './stand-in-thread.ts';
import { newAwsClient } from '#lib/ports/aws-client.ts';

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  /** The store thread's heap and its open LevelDB iterators (`GET /_local/metrics`). */
  usage(): Promise<StandInUsage>;
  close(): Promise<void>;
}

/**
 * The embedded DynamoDB-API server (dynalite, in a thread of its own): in memory, or persisted under
 * `path` so a restart keeps the data.
 */
export const startDynamo = async (path: string | undefined): Promise<LocalDynamo> => {
  const thread = await startStandInThread({ kind: 'dynamodb', path });
  const client = newAwsClient(DynamoDBClient, thread.clientConfig);
  return {
    endpoint: thread.endpoint,
    client,
    usage: thread.usage,
    close: async () => {
      client.destroy();
      await thread.close();
    },
  };
};

const attribute = (name: string) => ({ AttributeName: name, AttributeType: 'S' as const });

/** Creates the table with the stack's key schema and indexes unless a previous run already did. */
const indexesOf = (): GlobalSecondaryIndex[] =>
  TABLE_INDEXES.map((index) => ({
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  }));

const createTable = (client: DynamoDBClient, tableName: string) =>
  client.send(
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
      GlobalSecondaryIndexes: indexesOf(),
    }),
  );

const statusOf = async (client: DynamoDBClient, tableName: string) =>
  (await client.send(new DescribeTableCommand({ TableName: tableName })).catch(() => undefined))?.Table?.TableStatus;
const pause = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Waits until a table just created is ACTIVE: dynalite activates it in a timer of its own. */
export const waitUntilActive = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  while ((await statusOf(client, tableName)) !== 'ACTIVE') await pause();
};

/**
 * Creates the table and waits until it is ACTIVE, as a DynamoDB client must: CreateTable answers CREATING, and
 * dynalite activates the table in a timer of its own, which the next request may come before.
 */
const createActiveTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  await createTable(client, tableName);
  await waitUntilActive(client, tableName);
};

const scanAll = async (client: DynamoDBClient, tableName: string): Promise<Record<string, AttributeValue>[]> => {
  const items: Record<string, AttributeValue>[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
};

/**
 * A table kept under DATA_DIR by an earlier version may lack an index added since. DynamoDB adds one with
 * UpdateTable (CloudFormation does it in AWS); dynalite cannot, so the local table is rebuilt with every
 * index and its items written back. Items stored before carry no keys for the new index until rewritten.
 */
const addMissingIndexes = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  if (TABLE_INDEXES.every((index) => present.has(index.indexName))) return;
  const items = await scanAll(client, tableName);
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  // dynalite deletes in the background: wait until the name is free.
  while (await statusOf(client, tableName)) await pause();
  await createActiveTable(client, tableName);
  for (let start = 0; start < items.length; start += 25) {
    const batch = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    let unprocessed: Record<string, typeof batch> | undefined = { [tableName]: batch };
    while (unprocessed && Object.keys(unprocessed).length > 0) {
      ({ UnprocessedItems: unprocessed } = (await client.send(
        new BatchWriteItemCommand({ RequestItems: unprocessed }),
      )) as { UnprocessedItems?: Record<string, typeof batch> });
    }
  }
};

export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  try {
    await createActiveTable(client, tableName);
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await addMissingIndexes(client, tableName);
  }
};
