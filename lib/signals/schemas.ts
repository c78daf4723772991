import * as z from 'zod/mini';
import { pageQuery } from '#lib/contract/page-query.ts';
import { nestingAllowedAt, storableNumber, storedJsonObject } from '#lib/store/stored-json.ts';
import { MAX_BULK_SIGNALS, SIGNAL_SEVERITIES, SIGNAL_STATUSES } from './signal.ts';

const text = (max: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

/** Far below the 400 KB item limit, with room for the signal's own fields. */
const MAX_METADATA_BYTES = 64 * 1024;

/** `metadata` is a top-level attribute of the signal's item (docs/data-model.md 5.7). */
const signalMetadata = storedJsonObject({ maxBytes: MAX_METADATA_BYTES, maxDepth: nestingAllowedAt(1) });

const metadata = signalMetadata.check(
  z.refine(
    (value) =>
      value.fingerprint === undefined || (typeof value.fingerprint === 'string' && value.fingerprint.trim() !== ''),
    { message: 'must be a non-empty string', path: ['fingerprint'] },
  ),
);

/**
 * The spec's Signal input, for `POST /signals` and each bulk item. `metadata.fingerprint`, when given, is the
 * signal's identity for deduplication; otherwise source, name and serviceId are.
 */
export const signalInput = z.object({
  name: text(200),
  source: text(100),
  type: z
    .optional(text(100))
    .check(z.describe('What kind of event; part of the deduplication identity. Default `signal`')),
  severity: z.enum(SIGNAL_SEVERITIES),
  serviceId: z.optional(text(200)),
  value: z.optional(storableNumber),
  metadata: z.optional(metadata),
  triggeredAt: z.optional(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' })),
});
export type SignalInput = z.output<typeof signalInput>;

/** Items are checked one by one by the route, so a bad item never rejects its neighbours. */
export const bulkSignalsBody = z.object({
  signals: z
    .array(z.unknown())
    .check(
      z.minLength(1, 'must hold at least one signal'),
      z.maxLength(MAX_BULK_SIGNALS, `must hold at most ${MAX_BULK_SIGNALS} signals`),
    ),
});

/** Any string: a value that is not a signal id is simply not found (404). */
export const signalIdParams = z.object({ id: z.string().check(z.minLength(1)) });

const note = z.string().check(z.trim(), z.maxLength(2000, 'must be at most 2000 characters'));

/** The body may be left out: the note is optional. */
export const noteBody = z._default(z.object({ note: z.optional(note) }), {});

/** `reason` is the spec's word for the suppress note; `note` is taken too, like the other moves. */
export const suppressBody = z._default(z.object({ reason: z.optional(note), note: z.optional(note) }), {});

export const listSignalsQuery = z.extend(pageQuery(), {
  status: z.optional(z.enum(SIGNAL_STATUSES)),
  severity: z.optional(z.enum(SIGNAL_SEVERITIES)),
  source: z.optional(text(100)),
  serviceId: z
    .optional(text(200))
    .check(z.describe('Signals of this service (its `serviceId`, compared without case)')),
});
export type ListSignalsInput = z.output<typeof listSignalsQuery>;
