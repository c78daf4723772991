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
export const unlessConditionFails = async <T, F = undefined>(
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

/** Writes `item` unless its key exists: false when it did (the caller's conflict). */
export const putIfAbsent = async (table: Table, item: Item): Promise<boolean> =>
  (await unlessConditionFails(() =>
    table.doc.send(
      new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  )) !== undefined;

/** A put whose own condition decides: false when the condition did not hold. */
export const putIf = async (
  table: Table,
  item: Item,
  options: PutOptions & { ConditionExpression: string },
): Promise<boolean> =>
  (await unlessConditionFails(() =>
    table.doc.send(new PutCommand({ ...options, TableName: table.name, Item: item })),
  )) !== undefined;

/**
 * Updates an item that exists (plus any condition of the caller's) and answers it as written, or
 * `undefined` when it does not exist or the condition failed (the caller's not-found or conflict).
 */
export const updateIfPresent = async (
  table: Table,
  key: Key,
  update: UpdateOptions,
  returnValues: 'ALL_NEW' | 'ALL_OLD' = 'ALL_NEW',
): Promise<Item | undefined> => {
  const condition = ['attribute_exists(pk)', update.ConditionExpression].filter(Boolean).join(' AND ');
  const result = await unlessConditionFails(() =>
    table.doc.send(
      new UpdateCommand({
        ...update,
        TableName: table.name,
        Key: key,
        ConditionExpression: condition,
        ReturnValues: returnValues,
      }),
    ),
  );
  return result?.Attributes;
};

/** Deletes an item that exists (plus any condition of the caller's) and answers it as it was, or `undefined`. */
export const deleteIfPresent = async (
  table: Table,
  key: Key,
  options: DeleteOptions = {},
): Promise<Item | undefined> => {
  const condition = ['attribute_exists(pk)', options.ConditionExpression].filter(Boolean).join(' AND ');
  const result = await unlessConditionFails(() =>
    table.doc.send(
      new DeleteCommand({
        ...options,
        TableName: table.name,
        Key: key,
        ConditionExpression: condition,
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  return result?.Attributes;
};
