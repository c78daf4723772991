/** Readers of optional attributes for `fromItem` mappers, which need no access to the table. */

/** An optional text attribute as read: `null` when absent or not a string. */
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An optional number attribute as read: `null` when absent or not a number. */
export const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
