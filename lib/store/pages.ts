import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor, keyAttributes } from './cursor.ts';
import { countAll, type QueryInput } from './queries.ts';
import type { Item } from './items.ts';
import type { Table } from './table.ts';

/*
 * Paged lists, apart from queries.ts: the authentication path every cold start loads reads whole key
 * conditions only, so paging and cursors stay in the chunks of the routes that list.
 */

/** What a list answer says about its paging besides the items. */
export interface PageInfo {
  total: number;
  /** The page these items are, when a cursor decided it rather than `page`. */
  page?: number;
  /** Only when the request named a `cursor` (empty to start): where the next page starts, null after the last. */
  nextCursor?: string | null;
}

/** One page of a list, and how many items the whole list has. */
export interface Page<T> extends PageInfo {
  items: T[];
}

/** A page of a list, counted from 1, or the position a `cursor` names. */
export interface PageRequest {
  page: number;
  limit: number;
  cursor?: string;
}

/**
 * Where the matches after the first `count` start, read with the keys alone: the start of page N costs
 * no item of the pages before it. `Limit` is the number still to skip, which a filter can only lower,
 * so no request passes the point. `done` when the list ends first.
 */
const skipMatches = async (
  table: Table,
  input: QueryInput,
  count: number,
): Promise<{ start?: Item; done: boolean }> => {
  let remaining = count;
  let start: Item | undefined;
  while (remaining > 0) {
    const result = await table.doc.send(
      new QueryCommand({
        ...input,
        TableName: table.name,
        ProjectionExpression: keyAttributes(input).join(', '),
        Limit: remaining,
        ExclusiveStartKey: start,
      }),
    );
    remaining -= result.Items?.length ?? 0;
    start = result.LastEvaluatedKey;
    if (!start) return { done: true };
  }
  return { start, done: false };
};

/** Up to `limit` matches from `start`, and the position after the last one read. */
const readFrom = async (
  table: Table,
  input: QueryInput,
  limit: number,
  start: Item | undefined,
): Promise<{ items: Item[]; next?: Item }> => {
  const items: Item[] = [];
  let next = start;
  do {
    const result = await table.doc.send(
      new QueryCommand({ ...input, TableName: table.name, Limit: limit - items.length, ExclusiveStartKey: next }),
    );
    items.push(...(result.Items ?? []));
    next = result.LastEvaluatedKey;
  } while (next && items.length < limit);
  return { items, ...(next && { next }) };
};

/**
 * One page of a key condition (docs/data-model.md section 4). `page` is reached by skipping keys only, or a
 * `cursor` resumes where its page ended; then `limit` items are read. `total` comes from the list's
 * counter when it has one, else from a COUNT of the key condition. A `cursor` in the request, even an
 * empty one, asks for `nextCursor` in the answer.
 */
export const queryPage = async <T>(
  table: Table,
  input: QueryInput,
  { page, limit, cursor }: PageRequest,
  read: (item: Item) => T,
  counted?: () => Promise<number>,
): Promise<Page<T>> => {
  const resume = cursor ? decodeCursor(input, cursor) : undefined;
  const offset = resume ? resume.offset : (page - 1) * limit;
  const readPage = async () => {
    if (resume) return readFrom(table, input, limit, resume.key);
    const skipped = await skipMatches(table, input, offset);
    return skipped.done ? { items: [] } : readFrom(table, input, limit, skipped.start);
  };
  const [{ items, next }, total] = await Promise.all([readPage(), counted ? counted() : countAll(table, input)]);
  return {
    items: items.map(read),
    total,
    ...(resume && { page: Math.floor(offset / limit) + 1 }),
    ...(cursor !== undefined && {
      nextCursor:
        next && items.length === limit ? encodeCursor(input, { key: next, offset: offset + items.length }) : null,
    }),
  };
};
