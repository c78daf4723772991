import { counterDelta, countersOf, type FilterValues, filterCounterName, filterCounts, sumCounts } from './counters.ts';
import { addToCounters } from './add-to-counters.ts';
import { putItem } from './conditional-writes.ts';
import { getItem, type Item } from './items.ts';
import { workspaceKey } from './keys.ts';
import { queryAll } from './queries.ts';
import type { Table } from './table.ts';

/**
 * A list's counter item (docs/data-model.md 5.16): `{W}#COUNTER` / `<name>`, `type` `<kind>_COUNTER`, one
 * attribute per combination of filter values (`filterCounts`). Kept by `ADD` after each write of an item it
 * counts, read by the list for `total`, rewritten whole by the recount job (data-model 6).
 */
export interface ListCounter {
  name: string;
  type: string;
}

const COUNTER_PARTITION = 'COUNTER';

/** The key of the counter item `name`: every counter of a workspace lives in its COUNTER partition. */
export const listCounterKey = (workspaceId: string, name: string) => ({
  pk: workspaceKey(workspaceId, COUNTER_PARTITION),
  sk: name,
});

export const addToListCounter = async (
  table: Table,
  workspaceId: string,
  { name, type }: ListCounter,
  delta: Record<string, number>,
): Promise<void> => {
  if (Object.keys(delta).length === 0) return;
  await addToCounters(table, listCounterKey(workspaceId, name), delta, { type, workspaceId });
};

/** Every attribute of the counter; an absent counter (nothing counted yet) has none, and drift below zero reads as zero. */
export const readListCounter = async (
  table: Table,
  workspaceId: string,
  { name }: ListCounter,
): Promise<Record<string, number>> =>
  Object.fromEntries(
    Object.entries(countersOf(await getItem(table, listCounterKey(workspaceId, name), false))).map(
      ([attribute, count]) => [attribute, Math.max(0, count)],
    ),
  );

/** Every counter item of the workspace whose name starts with `prefix`: one Query. */
export const readCountersNamed = (table: Table, workspaceId: string, prefix: string): Promise<Item[]> =>
  queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId, COUNTER_PARTITION), ':prefix': prefix },
  });

/** The total of the list under these filter values: one attribute of one GetItem. */
export const readListTotal = async (
  table: Table,
  workspaceId: string,
  counter: ListCounter,
  values: FilterValues = {},
): Promise<number> => (await readListCounter(table, workspaceId, counter))[filterCounterName(values)] ?? 0;

/** The counter item holding `counts`: what a recount writes, replacing whatever the counter held. */
export const listCounterItem = (workspaceId: string, { name, type }: ListCounter, counts: Record<string, number>) => ({
  ...listCounterKey(workspaceId, name),
  type,
  workspaceId,
  ...counts,
});

export const rewriteListCounter = async (
  table: Table,
  workspaceId: string,
  counter: ListCounter,
  counts: Record<string, number>,
): Promise<void> => {
  await putItem(table, listCounterItem(workspaceId, counter, counts));
};

/** What a recount reads of one partition: the attributes the counter counts, and each item's contribution. */
interface RecountSource {
  partition: string;
  attributes: readonly string[];
  contribution: (item: Item) => Record<string, number>;
}

/**
 * The recount (data-model 6): the counter rewritten from the counted attributes of every item of one
 * partition, read with those attributes alone; answers how many items it counted.
 */
const recountListCounter = async (
  table: Table,
  workspaceId: string,
  counter: ListCounter,
  { partition, attributes, contribution }: RecountSource,
): Promise<number> => {
  const names = Object.fromEntries(attributes.map((attribute, index) => [`#a${index}`, attribute]));
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ExpressionAttributeNames: names,
    ProjectionExpression: Object.keys(names).join(', '),
  });
  await rewriteListCounter(table, workspaceId, counter, sumCounts(items.map(contribution)));
  return items.length;
};

/**
 * A list whose counter counts each item under its filter values: the declaration its entity module
 * makes, from which the functions below derive every write, read and recount of the counter.
 */
export interface CountedList<T> extends ListCounter {
  /** The item attributes the filter values come from: all that a recount reads of each item. */
  attributes: readonly string[];
  /** The filter values an item (or a list's filter) is counted under; undefined where it has none. */
  filters: (item: Partial<T>) => FilterValues;
  /**
   * What an item adds beside its filter combinations: sums for means over the whole list (minutes to
   * acknowledge, ...), and counts of a filter kept out of the combinations (an incident's service area).
   */
  measures?: (item: Partial<T>) => Record<string, number>;
}

/*
 * The operations of a declared list's counter, each a function of its own rather than one factory's, so a
 * bundle carries only those it reaches (a worker that reads one incident needs no recount).
 */
const contributionOf = <T>(counted: CountedList<T>, item: Partial<T> | undefined): Record<string, number> =>
  item ? { ...filterCounts(counted.filters(item)), ...counted.measures?.(item) } : {};

/** Adds the change from `before` to `after` (undefined: did not exist / no longer exists). */
export const countListWrite = <T>(
  table: Table,
  workspaceId: string,
  counted: CountedList<T>,
  before: Partial<T> | undefined,
  after: Partial<T> | undefined,
): Promise<void> =>
  addToListCounter(
    table,
    workspaceId,
    counted,
    counterDelta(contributionOf(counted, before), contributionOf(counted, after)),
  );

/** The total of a declared list under a filter. */
export const readCountedTotal = <T>(
  table: Table,
  workspaceId: string,
  counted: CountedList<T>,
  filter: Partial<T>,
): Promise<number> => readListTotal(table, workspaceId, counted, counted.filters(filter));

/** The recount (data-model 6) of a declared list from the items of `partition`. */
export const recountList = <T>(
  table: Table,
  workspaceId: string,
  counted: CountedList<T>,
  partition: string,
): Promise<number> =>
  recountListCounter(table, workspaceId, counted, {
    partition,
    attributes: counted.attributes,
    contribution: (item) => contributionOf(counted, item as Partial<T>),
  });
