import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';

/** An id that senders write as a number or a string; kept as a string. */
export const idSchema = z.pipe(
  z.union([z.string().check(z.minLength(1)), storableNumber], {
    error: 'Invalid input: expected a string or a number',
  }),
  z.transform(String),
);

/**
 * A sender's free-form object (generic-webhook `metadata`, alert labels): kept as sent, since a sender cannot
 * change what it sends and signal metadata is stored as JSON text, whatever its size, nesting or numbers.
 */
export const senderObject = z.record(z.string(), z.unknown());

/** A string field that senders fill, leave null or leave out. */
export const optionalText = z.nullish(z.string());

/** An account as code hosts nest it (`sender`, `user`, `creator`...). */
export const loginSchema = z.nullish(z.object({ login: z.nullish(z.string()), email: z.nullish(z.string()) }));

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Metadata without the fields the payload did not fill, so stored signals carry no empty keys. */
export const compact = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => !isEmpty(value)));

/** A table looked up by a sender's words: a Map, so `constructor` or `__proto__` find nothing. */
export const lookupTable = <V>(entries: Record<string, V>): ReadonlyMap<string, V> => new Map(Object.entries(entries));
