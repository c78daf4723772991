import { createHash } from 'node:crypto';
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Item } from './items.ts';
import { InvalidCursorError } from './store-errors.ts';

/**
 * The opaque `cursor`/`nextCursor` of a list: base64url of the position after the last item answered
 * (DynamoDB's `LastEvaluatedKey`), the number of items before it, and a digest of the list's query. The
 * digest covers the partition value (which starts with the workspace id) and every filter, so a cursor
 * only ever resumes the list that issued it; any other is refused rather than followed.
 */
type QueryInput = Pick<
  QueryCommandInput,
  | 'IndexName'
  | 'KeyConditionExpression'
  | 'FilterExpression'
  | 'ExpressionAttributeNames'
  | 'ExpressionAttributeValues'
  | 'ScanIndexForward'
>;

interface Position {
  list: string;
  key: Item;
  offset: number;
}

export interface Resume {
  key: Item;
  offset: number;
}

const listDigest = (input: QueryInput): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        input.IndexName ?? '',
        input.KeyConditionExpression,
        input.FilterExpression ?? '',
        input.ExpressionAttributeNames ?? {},
        input.ExpressionAttributeValues ?? {},
        input.ScanIndexForward ?? true,
      ]),
    )
    .digest('base64url')
    .slice(0, 22);

/** The attributes of a position in this query's index: the table key, and the index key for an index. */
export const keyAttributes = (input: QueryInput): string[] =>
  input.IndexName ? ['pk', 'sk', `${input.IndexName}pk`, `${input.IndexName}sk`] : ['pk', 'sk'];

/** `WS#<id>#` or `ACCOUNT#...#`: the owner a partition value belongs to. */
const ownerOf = (partition: string): string => partition.split('#').slice(0, 2).join('#');

export const encodeCursor = (input: QueryInput, { key, offset }: Resume): string => {
  const position: Position = { list: listDigest(input), key, offset };
  return Buffer.from(JSON.stringify(position)).toString('base64url');
};

const parse = (cursor: string): unknown => {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

/** Where a cursor of this very list resumes; anything else (foreign, altered, malformed) throws. */
export const decodeCursor = (input: QueryInput, cursor: string): Resume => {
  const position = parse(cursor) as Partial<Position> | undefined;
  if (!position || typeof position !== 'object') throw new InvalidCursorError('is not a cursor of this service');
  if (position.list !== listDigest(input)) throw new InvalidCursorError('belongs to another list or workspace');
  const { key, offset } = position;
  const names = keyAttributes(input);
  const partition = input.ExpressionAttributeValues?.[':pk'];
  const wellFormed =
    typeof key === 'object' &&
    key !== null &&
    Number.isSafeInteger(offset) &&
    (offset as number) >= 0 &&
    typeof partition === 'string' &&
    Object.keys(key).length === names.length &&
    names.every((name) => typeof key[name] === 'string') &&
    key[names[names.length - 2] as string] === partition &&
    ownerOf(key.pk as string) === ownerOf(partition);
  if (!wellFormed) throw new InvalidCursorError('names no position in this list');
  return { key: key as Item, offset: offset as number };
};
