import * as z from 'zod/mini';
import { count } from '#lib/contract/response-fields.ts';
import { SIGNAL_SEVERITIES, SIGNAL_STATUSES, type SignalMove } from './signal.ts';

/** What the signals routes answer in `data` (the route table's `response`). */
const time = z.iso.datetime();

const SIGNAL_MOVES = ['acknowledge', 'resolve', 'suppress'] as const satisfies readonly SignalMove[];

const signalFields = {
  id: z.string(),
  name: z.string(),
  source: z.string(),
  type: z.string(),
  severity: z.enum(SIGNAL_SEVERITIES),
  status: z.enum(SIGNAL_STATUSES),
  serviceId: z.nullable(z.string()),
  value: z.nullable(z.number()),
  triggeredAt: time,
  fingerprint: z.string(),
  occurrences: count.check(z.describe('Events merged into this signal, the first included')),
  firstSeenAt: time,
  lastSeenAt: time,
  incidentId: z.nullable(z.string()),
  notes: z.array(z.object({ move: z.enum(SIGNAL_MOVES), text: z.string(), by: z.string(), at: time })),
  acknowledgedAt: z.nullable(time),
  resolvedAt: z.nullable(time),
  suppressedAt: z.nullable(time),
  createdAt: time,
  updatedAt: time,
};

/** A list item: every field but `metadata`. */
export const signalSummaryView = z.object(signalFields);

/** One signal as the moves answer it: whole, metadata included. */
export const signalView = z.object({ ...signalFields, metadata: z.record(z.string(), z.unknown()) });

const signalCorrelationView = z.nullable(
  z
    .object({
      ruleId: z.string(),
      ruleName: z.string(),
      groupKey: z.string(),
      signalsInWindow: z.int(),
      minSignals: z.int(),
      windowMinutes: z.int(),
      incidentId: z.nullable(z.string()),
    })
    .check(
      z.describe(
        'The rule that takes the signal and how far its group is from the threshold ("2 of 3"), computed when read; null when no rule takes it',
      ),
    ),
);

export const signalWithCorrelationView = z.object({
  ...signalView.shape,
  correlation: signalCorrelationView,
});

export const createdSignalView = z.object({
  id: z.string(),
  status: z.enum(SIGNAL_STATUSES),
  createdAt: time,
  deduplicated: z.boolean(),
});

export const bulkResultView = z.object({
  accepted: z.int(),
  rejected: z.int(),
  results: z.array(
    z.object({
      index: z.int(),
      id: z.optional(z.string()),
      deduplicated: z.optional(z.boolean()),
      error: z.optional(z.string()),
    }),
  ),
});

export const signalStatsView = z.object({
  total: z.int(),
  open: z.int(),
  acknowledged: z.int(),
  resolved: z.int(),
  suppressed: z.int(),
  topSources: z.array(z.object({ source: z.string(), count: z.int() })),
});

export const pageAndTotal = z.object({ page: z.int(), total: z.int(), nextCursor: z.optional(z.nullable(z.string())) });
