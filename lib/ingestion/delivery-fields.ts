/** Reading a delivery's headers and body for its ids, whatever the body turns out to be. */
type Fields = Record<string, unknown>;

/** The value as an object's fields; anything else has none. */
export const asFields = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

/** A value trimmed, or undefined when it is absent or blank. */
export const nonEmpty = (value: string | undefined): string | undefined => value?.trim() || undefined;

/** A non-blank string, or undefined. */
export const text = (value: unknown): string | undefined => (typeof value === 'string' ? nonEmpty(value) : undefined);
