import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { expect, it } from 'vitest';
import { ensureTable, startDynamo, waitUntilActive } from '#infra/local/dynamo-server.ts';
import { TABLE_INDEXES } from '#lib/store/table-schema.ts';

it('gives a table kept by an earlier version the indexes added since, keeping its items', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'table-indexes-'));
  const dynamo = await startDynamo(join(dir, 'dynamodb'));
  try {
    const [first] = TABLE_INDEXES;
    if (!first) throw new Error('no index');
    await dynamo.client.send(
      new CreateTableCommand({
        TableName: 'older',
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: ['pk', 'sk', first.partitionKey, first.sortKey].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        GlobalSecondaryIndexes: [
          {
            IndexName: first.indexName,
            KeySchema: [
              { AttributeName: first.partitionKey, KeyType: 'HASH' },
              { AttributeName: first.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    // CreateTable answers CREATING, as DynamoDB does: the table takes writes once ACTIVE.
    await waitUntilActive(dynamo.client, 'older');
    const key = { pk: { S: 'WS#w#SIG' }, sk: { S: 's1' } };
    await dynamo.client.send(new PutItemCommand({ TableName: 'older', Item: { ...key, name: { S: 'kept' } } }));

    await ensureTable(dynamo.client, 'older');

    const { Table } = await dynamo.client.send(new DescribeTableCommand({ TableName: 'older' }));
    expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(
      TABLE_INDEXES.map((index) => index.indexName).sort(),
    );
    const { Item } = await dynamo.client.send(new GetItemCommand({ TableName: 'older', Key: key }));
    expect(Item?.name).toEqual({ S: 'kept' });
  } finally {
    await dynamo.close();
    await rm(dir, { recursive: true, force: true });
  }
});
