import type { Ports } from '#lib/ports/ports.ts';
import type { Signal } from './signal.ts';
import type { SignalCounterValues } from './signal-counter.ts';

/** One attempt at storing an event, shared by the delivery protocol and the fingerprint protocol. */
export interface Attempt {
  /** The id a new signal takes: fresh per call, or the pre-assigned id of a queued event. */
  signalId: string;
  receivedAt: Date;
  /** The claimedAt of a PROCESSING delivery this attempt may continue as its own. */
  ownDeliveryClaim?: string;
  /** Set once the event changed a signal; from then on a failure must not put the event on the queue. */
  committed: boolean;
  /** The PROCESSING delivery this attempt wrote. */
  deliveryClaimedAt?: string;
}

/** What writing the event did to its signal. */
export interface Written {
  signal: Signal;
  /** This attempt wrote a new signal (false for one an earlier try of the same event had written). */
  inserted: boolean;
  deduplicated: boolean;
  resolved: boolean;
  /** What the signal counter gains. */
  counted: SignalCounterValues;
  /** A new trigger signal, to be correlated. */
  correlate: boolean;
}

/** How often a step waiting for another attempt looks again. */
export const POLL_MS = 25;

export const ageMs = (runtime: Ports, since: string): number => runtime.clock.now().getTime() - Date.parse(since);
