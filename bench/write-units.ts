import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#infra/local/local-aws.ts';
import { TABLE_INDEXES, TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '#lib/store/table-schema.ts';
import type { Table } from '#lib/store/table.ts';

type Item = Record<string, unknown>;

/** DynamoDB's item size: attribute names and values, UTF-8; numbers about one byte per two digits. */
const valueSize = (value: unknown): number => {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/^-|\./g, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (value instanceof Set) return [...value].reduce((sum: number, member) => sum + valueSize(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, member) => sum + 1 + valueSize(member), 0);
  return 3 + itemSize(value as Item) + Object.keys(value as Item).length;
};

const itemSize = (item: Item): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);

/** Write units are billed per started kilobyte, at least one. */
const units = (item: Item | undefined): number => (item ? Math.max(1, Math.ceil(itemSize(item) / 1024)) : 0);

const same = (a: Item, b: Item): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The write units DynamoDB bills for one write that turned `before` into `after` (either may be missing), by
 * its documented rules: the table's units by the larger of the two items; for each index (all project every
 * attribute), one entry written when the item enters or leaves it or its projected attributes change, two
 * (a delete and a put) when its index key changes. A refused conditional write bills the table's units only.
 */
export const writeUnitsOf = (before: Item | undefined, after: Item | undefined, refused: boolean): number => {
  const table = Math.max(units(before), units(after), 1);
  if (refused || (before && after && same(before, after))) return table;
  return TABLE_INDEXES.reduce((sum, { partitionKey, sortKey }) => {
    const inOld = before?.[partitionKey] !== undefined && before?.[sortKey] !== undefined;
    const inNew = after?.[partitionKey] !== undefined && after?.[sortKey] !== undefined;
    if (inOld && inNew) {
      const moved = before?.[partitionKey] !== after?.[partitionKey] || before?.[sortKey] !== after?.[sortKey];
      return sum + (moved ? units(before) + units(after) : units(after));
    }
    return sum + (inOld ? units(before) : 0) + (inNew ? units(after) : 0);
  }, table);
};

/** The written item's key, from the input as the document client has it or as it marshalled it. */
const keyOf = (input: { Item?: Item; Key?: Item }): Item | undefined => {
  const source = input.Key ?? input.Item;
  if (!source) return undefined;
  const plain = (value: unknown) => (value as { S?: string } | undefined)?.S ?? value;
  return { [TABLE_PARTITION_KEY]: plain(source[TABLE_PARTITION_KEY]), [TABLE_SORT_KEY]: plain(source[TABLE_SORT_KEY]) };
};

/** Where the middleware runs, the command is the document client's or the one it wraps. */
const SINGLE_ITEM_WRITES = new Set([
  'PutCommand',
  'PutItemCommand',
  'UpdateCommand',
  'UpdateItemCommand',
  'DeleteCommand',
  'DeleteItemCommand',
]);

/**
 * Meters the write units of the single-item writes on `table` while `metering()` is true: each write's
 * item is read before and after through a client of its own (so the reads are neither counted nor
 * metered), and `writeUnitsOf` prices the change.
 */
export const meterWriteUnits = async (table: Table, metering: () => boolean) => {
  const endpoint = await table.doc.config.endpoint?.();
  if (!endpoint) throw new Error('the table client has no endpoint to read through');
  const probe = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: `${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}${endpoint.path}`,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  const read = async (key: Item) =>
    (await probe.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: true }))).Item;
  const metered = { units: 0 };
  table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const key = keyOf(args.input as { Item?: Item; Key?: Item });
      if (!metering() || !key || !SINGLE_ITEM_WRITES.has(context.commandName ?? '')) return next(args);
      const before = await read(key);
      let refused = false;
      try {
        return await next(args);
      } catch (error) {
        refused = (error as { name?: string }).name === 'ConditionalCheckFailedException';
        throw error;
      } finally {
        // Read first: `units += await ...` would add to the total as it was before the read, losing the
        // units of the writes that end meanwhile.
        const after = refused ? before : await read(key);
        metered.units += writeUnitsOf(before, after, refused);
      }
    },
    { step: 'initialize', name: 'benchWriteUnitMeter' },
  );
  return { metered, close: () => probe.destroy() };
};
