import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { copyTable } from '#infra/ops/copy-table.ts';
import { ensureTable, startDynamo, type LocalDynamo } from '#infra/local/dynamo-server.ts';
import { batchPutItems } from '#lib/store/batch.ts';
import { createTable, type Table } from '#lib/store/table.ts';

describe('copying a restored table back into the stack table', () => {
  let dynamo: LocalDynamo;
  let restored: Table;
  let live: Table;
  beforeAll(async () => {
    dynamo = await startDynamo(undefined);
    await ensureTable(dynamo.client, 'restored');
    await ensureTable(dynamo.client, 'live');
    restored = createTable({ name: 'restored', client: dynamo.client });
    live = createTable({ name: 'live', client: dynamo.client });
  });
  afterAll(() => dynamo.close());

  it('puts every item of the source, over several pages, replacing the same keys and keeping the others', async () => {
    // Items of ~2 KB, so the source's 1 MB scan pages number more than one.
    const items = Array.from({ length: 700 }, (_, index) => ({
      pk: `W#1#INC`,
      sk: `INC#${String(index).padStart(4, '0')}`,
      status: 'OPEN',
      text: 'x'.repeat(2_000),
    }));
    await batchPutItems(restored, items);
    await batchPutItems(live, [
      { pk: 'W#1#INC', sk: 'INC#0000', status: 'DELETED BY MISTAKE' },
      { pk: 'W#1#INC', sk: 'INC#9999', status: 'CREATED SINCE' },
    ]);
    expect(await copyTable(restored, live)).toBe(700);
    const all = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await live.doc.send(new ScanCommand({ TableName: 'live', ExclusiveStartKey }));
      all.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    expect(all).toHaveLength(701);
    expect(all.find((item) => item.sk === 'INC#0000')).toEqual(items[0]);
    expect(all.find((item) => item.sk === 'INC#9999')?.status).toBe('CREATED SINCE');
  });
});
