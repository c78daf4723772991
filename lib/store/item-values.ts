/** Readers of optional attributes for `fromItem` mappers, which need no access to the table. */

/** An optional text attribute as read: `null` when absent or not a string. */
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An optional number attribute as read: `null` when absent or not a number. */
export const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** Throws unless the item is of the workspace it was read for: a key built for another would be a bug. */
export const assertOfWorkspace = (item: Record<string, unknown>, workspaceId: string, what: string): void => {
  if (item.workspaceId !== workspaceId) throw new Error(`${what} read outside its workspace`);
};

/**
 * The attributes an entity stores as they are, read back under the entity's own type:
 * `storedFields<Problem>()(item, ['id', 'title'])`. Whatever needs more than a cast is mapped beside it.
 */
export const storedFields =
  <T>() =>
  <K extends keyof T & string>(item: Record<string, unknown>, keys: readonly K[]): Pick<T, K> =>
    Object.fromEntries(keys.map((key) => [key, item[key]])) as Pick<T, K>;

/** Optional text attributes, each `null` when absent. */
export const textsOrNull = <K extends string>(
  item: Record<string, unknown>,
  keys: readonly K[],
): Record<K, string | null> =>
  Object.fromEntries(keys.map((key) => [key, textOrNull(item[key])])) as Record<K, string | null>;
