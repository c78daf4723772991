import type { Item } from './items.ts';

/** The numeric attributes of a counter item; an absent item reads as no counts at all. */
export const countersOf = (item: Item | undefined): Record<string, number> =>
  Object.fromEntries(
    Object.entries(item ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );

/** The filter values an item is listed under, by filter name; undefined where the item has none. */
export type FilterValues = Record<string, string | undefined>;

const definedValues = (values: FilterValues): [string, string][] =>
  Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .sort(([nameA], [nameB]) => nameA.localeCompare(nameB));

/**
 * The counter attribute of the items matching every one of `values`: `total` for none, `status#OPEN`,
 * `severity#HIGH|status#OPEN`. Values in keys are enums or URI-encoded, so neither `#` nor `|` occurs in one.
 */
export const filterCounterName = (values: FilterValues): string => {
  const parts = definedValues(values).map(([name, value]) => `${name}#${value}`);
  return parts.length === 0 ? 'total' : parts.join('|');
};

/** Whether a counter attribute counts a combination of filters rather than one. */
export const isCombinationCounter = (name: string): boolean => name.includes('|');

/**
 * What one item adds to its list's counter: 1 to the attribute of every combination of its filter
 * values, so a list's total under any mix of those filters is one attribute of one GetItem.
 */
export const filterCounts = (values: FilterValues): Record<string, number> => {
  const present = definedValues(values);
  const counts: Record<string, number> = {};
  for (let mask = 0; mask < 1 << present.length; mask += 1) {
    const chosen = present.filter((_entry, index) => (mask & (1 << index)) !== 0);
    counts[filterCounterName(Object.fromEntries(chosen))] = 1;
  }
  return counts;
};

/** The change from one contribution to another (`{}`: none), without the attributes that stay. */
export const counterDelta = (before: Record<string, number>, after: Record<string, number>): Record<string, number> => {
  const delta: Record<string, number> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const change = (after[name] ?? 0) - (before[name] ?? 0);
    if (change !== 0) delta[name] = change;
  }
  return delta;
};

/** Contributions added up: what a recount writes for the items it read. */
export const sumCounts = (contributions: readonly Record<string, number>[]): Record<string, number> => {
  const total: Record<string, number> = {};
  for (const counts of contributions) {
    for (const [name, value] of Object.entries(counts)) total[name] = (total[name] ?? 0) + value;
  }
  return total;
};
