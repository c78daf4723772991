import {
  DeleteCommand,
  PutCommand,
  UpdateCommand,
  type DeleteCommandInput,
  type PutCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './store-errors.ts';
import type { Item, Key } from './items.ts';
import type { Table } from './table.ts';

/**
 * The write's result, or what `onFailure` answers (by default `undefined`) when its condition did not
 * hold: the one place a failed DynamoDB condition is caught, so each repository says what the miss
 * means (a 409, a 404, "already done").
 */
const unlessConditionFails = async <T, F = undefined>(
  write: () => Promise<T>,
  onFailure: () => F = () => undefined as F,
): Promise<T | F> => {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailure(error)) return onFailure();
    throw error;
  }
};

type PutOptions = Omit<PutCommandInput, 'TableName' | 'Item'>;
type UpdateOptions = Omit<UpdateCommandInput, 'TableName' | 'Key' | 'ReturnValues'>;
type DeleteOptions = Omit<DeleteCommandInput, 'TableName' | 'Key' | 'ReturnValues'>;
type Conditioned<T> = T & { ConditionExpression: string };

const both = (first: string, second: string | undefined) => (second ? `${first} AND (${second})` : first);

/** Writes `item` whether or not its key exists. */
export const putItem = async (table: Table, item: Item): Promise<void> => {
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
};

/** Writes `item` whether or not its key exists, answering the item it replaced (undefined: none). */
export const replaceItem = async (table: Table, item: Item): Promise<Item | undefined> =>
  (await table.doc.send(new PutCommand({ TableName: table.name, Item: item, ReturnValues: 'ALL_OLD' }))).Attributes;

/** A put whose own condition decides: false when the condition did not hold. */
export const putIf = async (table: Table, item: Item, options: Conditioned<PutOptions>): Promise<boolean> =>
  (await unlessConditionFails(() =>
    table.doc.send(new PutCommand({ ...options, TableName: table.name, Item: item })),
  )) !== undefined;

/** Writes `item` unless its key exists: false when it did (the caller's conflict). */
export const putIfAbsent = (table: Table, item: Item): Promise<boolean> =>
  putIf(table, item, { ConditionExpression: 'attribute_not_exists(pk)' });

/** Writes an item under a fresh key (a ULID, a random id): one that exists already is a bug, so it throws. */
export const putNew = async (table: Table, item: Item): Promise<void> => {
  if (!(await putIfAbsent(table, item))) throw new Error(`an item exists at ${String(item.pk)} ${String(item.sk)}`);
};

/** An update that always applies (creating the item when absent); answers the item as written. */
export const updateItem = async (table: Table, key: Key, update: UpdateOptions): Promise<Item> =>
  (await table.doc.send(new UpdateCommand({ ...update, TableName: table.name, Key: key, ReturnValues: 'ALL_NEW' })))
    .Attributes ?? {};

/**
 * An update answering the item as it was: `{ before }` (`before` undefined when the update created it), or
 * `undefined` when the update's condition, if it has one, did not hold.
 */
export const updateFromBefore = (
  table: Table,
  key: Key,
  update: UpdateOptions,
): Promise<{ before: Item | undefined } | undefined> =>
  unlessConditionFails(async () => ({
    before: (
      await table.doc.send(new UpdateCommand({ ...update, TableName: table.name, Key: key, ReturnValues: 'ALL_OLD' }))
    ).Attributes,
  }));

/**
 * An update whose own condition decides: the item as written (or as it was, with `ALL_OLD`), or
 * `undefined` when the condition did not hold (the caller's not-found, conflict or "already done").
 */
export const updateIf = async (
  table: Table,
  key: Key,
  update: Conditioned<UpdateOptions>,
  returnValues: 'ALL_NEW' | 'ALL_OLD' = 'ALL_NEW',
): Promise<Item | undefined> => {
  const result = await unlessConditionFails(() =>
    table.doc.send(new UpdateCommand({ ...update, TableName: table.name, Key: key, ReturnValues: returnValues })),
  );
  return result?.Attributes;
};

/** Updates an item that exists (plus any condition of the caller's): `updateIf` for "not found". */
export const updateIfPresent = (
  table: Table,
  key: Key,
  update: UpdateOptions,
  returnValues: 'ALL_NEW' | 'ALL_OLD' = 'ALL_NEW',
): Promise<Item | undefined> =>
  updateIf(
    table,
    key,
    { ...update, ConditionExpression: both('attribute_exists(pk)', update.ConditionExpression) },
    returnValues,
  );

/** Deletes the item at `key`, if any. */
export const deleteItem = async (table: Table, key: Key): Promise<void> => {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: key }));
};

/** Deletes an item whose condition holds and answers it as it was, or `undefined`. */
export const deleteIf = async (
  table: Table,
  key: Key,
  options: Conditioned<DeleteOptions>,
): Promise<Item | undefined> => {
  const result = await unlessConditionFails(() =>
    table.doc.send(new DeleteCommand({ ...options, TableName: table.name, Key: key, ReturnValues: 'ALL_OLD' })),
  );
  return result?.Attributes;
};

/** Deletes an item that exists (plus any condition of the caller's): `deleteIf` for "not found". */
export const deleteIfPresent = (table: Table, key: Key, options: DeleteOptions = {}): Promise<Item | undefined> =>
  deleteIf(table, key, { ...options, ConditionExpression: both('attribute_exists(pk)', options.ConditionExpression) });
