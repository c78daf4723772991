import type { NormalizedAction, SignalSeverity } from './signal-event.ts';

export type { SignalSeverity };

export const SIGNAL_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED', 'SUPPRESSED'] as const;
export type SignalStatus = (typeof SIGNAL_STATUSES)[number];

export const SIGNAL_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH'] as const satisfies readonly SignalSeverity[];

/** The spec's limit of one bulk request. */
export const MAX_BULK_SIGNALS = 100;

/** The states in which a fingerprint's events merge into the signal instead of starting a new one. */
export const MERGING_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'SUPPRESSED'] as const satisfies readonly SignalStatus[];

/** A person's move of a signal, and the states it may start from (DECISIONS.md "Ingestion and signals"). */
export type SignalMove = 'acknowledge' | 'resolve' | 'suppress';

export const MOVES: Readonly<Record<SignalMove, { to: SignalStatus; from: readonly SignalStatus[] }>> = {
  acknowledge: { to: 'ACKNOWLEDGED', from: ['OPEN'] },
  resolve: { to: 'RESOLVED', from: MERGING_STATUSES },
  suppress: { to: 'SUPPRESSED', from: ['OPEN', 'ACKNOWLEDGED'] },
};

/** A note left by a move; a resolving event from a sender leaves none. */
export interface SignalNote {
  move: SignalMove;
  text: string;
  by: string;
  at: string;
}

/** A raw alert event and its repeats (spec: Signal; docs/data-model.md 5.7). */
export interface Signal {
  id: string;
  name: string;
  source: string;
  type: string;
  severity: SignalSeverity;
  status: SignalStatus;
  serviceId: string | null;
  value: number | null;
  metadata: Record<string, unknown>;
  triggeredAt: string;
  fingerprint: string;
  /** How many events were merged into this signal, the first included. */
  occurrences: number;
  firstSeenAt: string;
  lastSeenAt: string;
  /** Set by correlation when the signal joins an incident. */
  incidentId: string | null;
  notes: SignalNote[];
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  suppressedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * When a signal happened (docs/analysis.md, "Time"), for correlation's windows and the analysis: the time its
 * sender says it fired (`triggeredAt`: Alertmanager's `startsAt`, a paging tool's trigger, an alarm's state
 * change), never after it arrived (`createdAt`, its first sighting), so a sender's clock running ahead cannot
 * place it later than the service heard of it.
 */
export const signalTime = (signal: Pick<Signal, 'triggeredAt' | 'createdAt'>): string => {
  const triggered = Date.parse(signal.triggeredAt);
  const received = Date.parse(signal.createdAt);
  return new Date(Number.isNaN(triggered) ? received : Math.min(triggered, received)).toISOString();
};

/**
 * A signal as lists show it: every field but `metadata`, which can be as large as a sender's payload. The
 * whole signal is `GET /signals/:id`.
 */
export type SignalSummary = Omit<Signal, 'metadata'>;

export const signalSummary = ({ metadata: _metadata, ...summary }: Signal): SignalSummary => summary;

/**
 * What started the signal: 'trigger' signals are correlated; 'record' signals (informational) and the
 * RESOLVED record of a resolve that found no open signal never are.
 */
export type SignalOrigin = NormalizedAction;

/** Signal ids are ULIDs; any other path value names no signal and is answered without a read. */
export const isSignalId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
