import * as z from 'zod/mini';
import { storableNumber } from '#lib/store/stored-json.ts';
import { INVALID_DATE_TIME, isGoZeroTime, toIsoTimestamp } from './timestamps.ts';

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

/**
 * A sender's date-time field, given as ISO 8601: `input` holds text (or, for a sender that writes epochs as
 * numbers, text or a number) in a form `toIsoTimestamp` reads. A value `isUnset` calls the sender's way of writing
 * "no time" gives undefined, so the normalizer's fallback applies as for a field left out; any other value that
 * does not read is a field error (`alerts.0.startsAt: Invalid ISO 8601 date-time`), never the time of receipt.
 */
export const dateTimeOf = <T extends string | number>(input: z.ZodMiniType<T>, isUnset: (value: T) => boolean) =>
  z.pipe(
    input.check(z.refine((value) => isUnset(value) || toIsoTimestamp(value) !== undefined, INVALID_DATE_TIME)),
    z.transform((value): string | undefined => (isUnset(value) ? undefined : toIsoTimestamp(value))),
  );

/** A date-time as text; Go's zero time (Alertmanager's `endsAt` of an alert still firing) is no time. */
export const dateTime = dateTimeOf(z.string(), isGoZeroTime);

/** A date-time field that senders fill, leave null or leave out. */
export const optionalDateTime = z.nullish(dateTime);

/** An account as code hosts nest it (`sender`, `user`, `creator`...). */
export const loginSchema = z.nullish(z.object({ login: z.nullish(z.string()), email: z.nullish(z.string()) }));

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Metadata without the fields the payload did not fill, so stored signals carry no empty keys. */
export const compact = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => !isEmpty(value)));

/** A table looked up by a sender's words: a Map, so `constructor` or `__proto__` find nothing. */
export const lookupTable = <V>(entries: Record<string, V>): ReadonlyMap<string, V> => new Map(Object.entries(entries));
