import * as z from 'zod';
import { pageQuery } from '#lib/contract/page-query.ts';
import { nestingAllowedAt, storableNumber, storedJsonObject } from '#lib/store/stored-json.ts';
import { MAX_BULK_SIGNALS, SIGNAL_SEVERITIES, SIGNAL_STATUSES } from './signal.ts';

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** Far below the 400 KB item limit, with room for the signal's own fields. */
const MAX_METADATA_BYTES = 64 * 1024;

/** `metadata` is a top-level attribute of the signal's item (docs/data-model.md 5.7). */
export const signalMetadata = storedJsonObject({ maxBytes: MAX_METADATA_BYTES, maxDepth: nestingAllowedAt(1) });

const metadata = signalMetadata.refine(
  (value) =>
    value.fingerprint === undefined || (typeof value.fingerprint === 'string' && value.fingerprint.trim() !== ''),
  { message: 'must be a non-empty string', path: ['fingerprint'] },
);

/**
 * The spec's Signal input, for `POST /signals` and each bulk item. `metadata.fingerprint`, when given, is the
 * signal's identity for deduplication; otherwise source, name and serviceId are.
 */
export const signalInput = z.object({
  name: text(200),
  source: text(100),
  type: text(100).optional().describe('What kind of event; part of the deduplication identity. Default `signal`'),
  severity: z.enum(SIGNAL_SEVERITIES),
  serviceId: text(200).optional(),
  value: storableNumber.optional(),
  metadata: metadata.optional(),
  triggeredAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
});
export type SignalInput = z.output<typeof signalInput>;

export const createSignalBody = signalInput;

/** Items are checked one by one by the route, so a bad item never rejects its neighbours. */
export const bulkSignalsBody = z.object({
  signals: z
    .array(z.unknown())
    .min(1, 'must hold at least one signal')
    .max(MAX_BULK_SIGNALS, `must hold at most ${MAX_BULK_SIGNALS} signals`),
});
export type BulkSignalsInput = z.output<typeof bulkSignalsBody>;

/** Any string: a value that is not a signal id is simply not found (404). */
export const signalIdParams = z.object({ id: z.string().min(1) });

const note = z.string().trim().max(2000, 'must be at most 2000 characters');

/** The body may be left out: the note is optional. */
export const noteBody = z.object({ note: note.optional() }).default({});
export type NoteInput = z.output<typeof noteBody>;

/** `reason` is the spec's word for the suppress note; `note` is taken too, like the other moves. */
export const suppressBody = z.object({ reason: note.optional(), note: note.optional() }).default({});
export type SuppressInput = z.output<typeof suppressBody>;

export const listSignalsQuery = pageQuery().extend({
  status: z.enum(SIGNAL_STATUSES).optional(),
  severity: z.enum(SIGNAL_SEVERITIES).optional(),
  source: text(100).optional(),
});
export type ListSignalsInput = z.output<typeof listSignalsQuery>;
