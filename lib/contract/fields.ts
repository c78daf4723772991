import * as z from 'zod/mini';

/**
 * Field schemas several groups share, so one rule has one wording everywhere.
 */

/** Trimmed and lower-cased before the format check, so the stored address is the one every lookup uses. */
export const emailAddress = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254, 'must be at most 254 characters'),
    z.email('must be a valid e-mail address'),
  );

/**
 * A name Intl knows from the IANA database (`Europe/Berlin`, `UTC`, `Asia/Kolkata`). The check builds a
 * formatter because `Intl.supportedValuesOf` leaves out aliases; offsets such as `+02:00` are refused,
 * since SLA and digest times need the zone's daylight-saving rules, not a fixed offset.
 */
const isIanaTimezone = (value: string): boolean => {
  if (!/^[A-Za-z]/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

export const ianaTimezone = z
  .string()
  .check(
    z.trim(),
    z.refine(isIanaTimezone, 'must be an IANA time zone name, such as Europe/Berlin or UTC'),
    z.describe('IANA time zone name, such as Europe/Berlin'),
  );

const isDate = (value: string): boolean => z.iso.date().safeParse(value).success;

/**
 * A `from`/`to` bound of a time filter: a date-time with an offset (normalised to UTC), or a calendar
 * date meaning the start (`from`) or the end (`to`) of that UTC day, so `to=2024-05-01` includes all
 * of May 1st.
 */
export const timeBound = (edge: 'start' | 'end') =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.refine(
        (value) => isDate(value) || z.iso.datetime({ offset: true }).safeParse(value).success,
        'must be an ISO 8601 date (2024-05-01) or date-time (2024-05-01T10:00:00Z)',
      ),
    ),
    z.transform((value) => {
      if (!isDate(value)) return new Date(value).toISOString();
      return edge === 'start' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
    }),
  );

/** Refines a query with both bounds: `from` after `to` is a 400 on `from`. */
export const orderedTimeRange = <S extends z.ZodMiniType<{ from?: string | undefined; to?: string | undefined }>>(
  schema: S,
) =>
  schema.check(
    z.refine(({ from, to }) => !from || !to || from <= to, { message: 'must not be after to', path: ['from'] }),
  );
