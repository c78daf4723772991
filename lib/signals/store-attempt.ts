import type { DeliveryMark, DeliveryRef } from './delivery-mark.ts';
import type { Signal } from './signal.ts';
import type { SignalCounterValues } from './signal-counter.ts';

/** One attempt at storing an event, shared by the steps of the fingerprint protocol. */
export interface Attempt {
  /** The id a new signal takes: fresh per call, the pre-assigned id of a queued event, or a claim taken over. */
  signalId: string;
  receivedAt: Date;
  /** Set once the event changed a signal; from then on a failure must not put the event on the queue. */
  committed: boolean;
  /** The sender's delivery, when it gives an id, and its mark. */
  delivery?: DeliveryRef;
  mark?: DeliveryMark;
}

/** What writing the event did to its signal. */
export interface Written {
  signal: Signal;
  /** This attempt wrote a new signal (false for one an earlier try of the same event had written). */
  inserted: boolean;
  deduplicated: boolean;
  resolved: boolean;
  /** An acknowledging event moved the open signal to ACKNOWLEDGED. */
  acknowledged?: boolean;
  /** The delivery was counted before, by an earlier try of it: nothing changed now. */
  repeated: boolean;
  /** What the signal counter gains. */
  counted: SignalCounterValues;
  /** A new trigger signal, to be correlated. */
  correlate: boolean;
}

/** How often a step waiting for another attempt looks again. */
export const POLL_MS = 25;

/** How long ago `since` was, at `now`. */
export const ageMs = (now: Date, since: string): number => now.getTime() - Date.parse(since);

/** The answer for an event that changes nothing: a repeat of its delivery, or a replay of an ended episode. */
export const unchanged = (signal: Signal, repeated: boolean, resolved = false): Written => ({
  signal,
  inserted: false,
  deduplicated: true,
  resolved,
  repeated,
  counted: {},
  correlate: false,
});
