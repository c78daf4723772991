/**
 * Free text compared in filters: trimmed, lower-cased and encoded like every free-text key. A value, not a
 * key builder, so domain code that matches free text uses it without reaching the key builders (keys.ts).
 */
export const filterKey = (value: string): string => encodeURIComponent(value.trim().toLowerCase());
