/**
 * How a view or a new entity takes fields from another object: the ones it keeps as they are (`pick`) and
 * the optional ones the API answers as `null` when absent (`nullsFor`), so every view reads the same way.
 */
export const pick = <T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;

export const nullsFor = <T extends object, K extends keyof T>(
  value: T,
  keys: readonly K[],
): { [P in K]-?: Exclude<T[P], undefined> | null } =>
  Object.fromEntries(keys.map((key) => [key, value[key] ?? null])) as { [P in K]-?: Exclude<T[P], undefined> | null };
