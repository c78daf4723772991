import type { Scope } from '#lib/identity/scope.ts';
import { setTimeout as delay } from 'node:timers/promises';
import type { SignalEvent } from './signal-event.ts';
import { type FingerprintIdentity, fingerprintClaimRepository } from './fingerprint-claim-repository.ts';
import { MERGING_STATUSES, type Signal, type SignalStatus } from './signal.ts';
import { moveDelta, newSignalDelta } from './signal-counter.ts';
import { insertSignal, signalRepository } from './signal-repository.ts';
import { POLL_MS, ageMs, type Attempt, type Written } from './store-attempt.ts';

/** A claim whose signal is not written yet is a concurrent creator for this long; after, a crash leftover. */
const CLAIM_SETTLE_MS = 5_000;
const CLAIM_ATTEMPTS = 3;

const identityOf = (event: SignalEvent): FingerprintIdentity => ({
  source: event.signal.source,
  type: event.signal.type,
  fingerprint: event.fingerprint,
});

const newSignal = (event: SignalEvent, id: string, status: SignalStatus, seenAt: string): Signal => {
  const { name, source, type, severity, serviceId, value, metadata, triggeredAt } = event.signal;
  return {
    id,
    name,
    source,
    type,
    // Informational events never page anyone, whatever the sender said.
    severity: event.action === 'record' ? 'LOW' : severity,
    status,
    serviceId: serviceId ?? null,
    value: value ?? null,
    metadata,
    triggeredAt,
    fingerprint: event.fingerprint,
    occurrences: 1,
    firstSeenAt: seenAt,
    lastSeenAt: seenAt,
    incidentId: null,
    notes: [],
    acknowledgedAt: null,
    resolvedAt: status === 'RESOLVED' ? seenAt : null,
    suppressedAt: null,
    createdAt: seenAt,
    updatedAt: seenAt,
  };
};

/** Writes the new signal of a claim; a signal already there under this id is this event's, from an earlier try. */
const writeNewSignal = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written> => {
  const { ports: runtime, workspaceId } = scope;
  const signal = newSignal(event, attempt.signalId, 'OPEN', attempt.receivedAt.toISOString());
  const inserted = await insertSignal(runtime, workspaceId, signal, event.action);
  attempt.committed = true;
  const stored = inserted
    ? signal
    : ((await signalRepository(runtime.table, workspaceId).findSignal(signal.id)) ?? signal);
  return {
    signal: stored,
    inserted,
    deduplicated: false,
    resolved: false,
    counted: inserted ? newSignalDelta(signal) : {},
    correlate: event.action === 'trigger',
  };
};

/** Step 2 for 'trigger' and 'record' events: a new signal, or one more occurrence of the open one. */
export const openOrMerge = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written> => {
  const { ports: runtime, workspaceId } = scope;
  const { table } = runtime;
  const identity = identityOf(event);
  for (let tries = 0; tries < CLAIM_ATTEMPTS; tries += 1) {
    const claimedAt = runtime.clock.now().toISOString();
    if (
      await fingerprintClaimRepository(table, workspaceId).putFingerprintClaim(identity, {
        signalId: attempt.signalId,
        claimedAt,
      })
    ) {
      return writeNewSignal(scope, event, attempt);
    }
    const merged = await mergeIntoClaimed(scope, event, attempt);
    if (merged) return merged;
  }
  throw new Error(`fingerprint claim of ${identity.source}/${identity.type} stayed contended`);
};

/**
 * A sender re-sending an episode that already ended: the claim's signal was resolved by a resolving
 * event (a person's resolve through the API ends the claim instead) and this event started at the same
 * instant (Alertmanager's `startsAt`, the paging tool's incident time, a pipeline run's start). It is
 * the same problem, so it answers that signal; an event of a new episode starts a new signal, as
 * DECISIONS.md says.
 */
const isReplayOfResolved = (signal: Signal, event: SignalEvent): boolean =>
  signal.status === 'RESOLVED' && signal.triggeredAt === event.signal.triggeredAt;

/**
 * Merges into the signal the claim names. Undefined when the claim is gone or stale (its signal is
 * RESOLVED by a person or in an earlier episode, or was never written by a creator that crashed), after
 * releasing it, so the caller claims again. A replay of a resolved episode answers its signal. A claim younger than CLAIM_SETTLE_MS whose signal is missing belongs to a concurrent creator
 * between its two writes, so this waits for it rather than starting a second signal.
 */
const mergeIntoClaimed = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written | undefined> => {
  const { ports: runtime, workspaceId } = scope;
  const { table } = runtime;
  const fingerprintClaims = fingerprintClaimRepository(table, workspaceId);
  const signals = signalRepository(table, workspaceId);
  const identity = identityOf(event);
  for (;;) {
    const claim = await fingerprintClaims.findFingerprintClaim(identity);
    if (!claim) return undefined;
    if (claim.signalId === attempt.signalId) return writeNewSignal(scope, event, attempt);
    const merged = await signals.mergeOccurrence(claim.signalId, attempt.receivedAt.toISOString());
    if (merged) {
      attempt.committed = true;
      return { signal: merged, inserted: false, deduplicated: true, resolved: false, counted: {}, correlate: false };
    }
    const current = await signals.findSignal(claim.signalId);
    if (current && isReplayOfResolved(current, event)) {
      attempt.committed = true;
      return { signal: current, inserted: false, deduplicated: true, resolved: false, counted: {}, correlate: false };
    }
    const settling = !current && ageMs(runtime, claim.claimedAt) < CLAIM_SETTLE_MS;
    const stillMerging =
      current !== undefined && (MERGING_STATUSES as readonly SignalStatus[]).includes(current.status);
    if (!settling && !stillMerging) {
      await fingerprintClaims.releaseFingerprintClaim(identity, claim.signalId);
      return undefined;
    }
    await delay(POLL_MS + Math.random() * POLL_MS);
  }
};

/**
 * A resolve kept as a signal of its own is claimed per episode (its fingerprint and start), so the same
 * resolve sent again answers that signal instead of keeping another. Undefined: this event keeps it.
 */
const keptResolve = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written | undefined> => {
  const { ports: runtime, workspaceId } = scope;
  const { table } = runtime;
  const fingerprintClaims = fingerprintClaimRepository(table, workspaceId);
  const identity = identityOf(event);
  const episode = { ...identity, fingerprint: `${identity.fingerprint}#resolved#${event.signal.triggeredAt}` };
  const claimedAt = runtime.clock.now().toISOString();
  if (
    await fingerprintClaims.putFingerprintClaim(episode, {
      signalId: attempt.signalId,
      claimedAt,
    })
  )
    return undefined;
  const claim = await fingerprintClaims.findFingerprintClaim(episode);
  if (!claim || claim.signalId === attempt.signalId) return undefined;
  const signal = await signalRepository(table, workspaceId).findSignal(claim.signalId);
  if (!signal) return undefined;
  attempt.committed = true;
  return { signal, inserted: false, deduplicated: true, resolved: false, counted: {}, correlate: false };
};

/**
 * A resolve of an episode that started before the open signal's (Alertmanager sends the resolve of an
 * old firing after a new one began) cannot end the newer problem; it is kept as a signal of its own.
 */
const endsAnEarlierEpisode = async (scope: Scope, signalId: string, event: SignalEvent) => {
  const { ports: runtime, workspaceId } = scope;
  const open = await signalRepository(runtime.table, workspaceId).findSignal(signalId);
  return open !== undefined && open.status !== 'RESOLVED' && event.signal.triggeredAt < open.triggeredAt;
};

/**
 * Step 2 for 'resolve' events: resolves the open signal of the fingerprint. The claim stays, marked as
 * resolved by the sender, so a re-sent event of the same episode answers this signal and an event of a
 * new episode starts a new one. With no open signal the resolve is still kept, as a RESOLVED signal of
 * its own (`resolved: false`), so the sender gets an id and the event is on record.
 */
export const resolveEvent = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written> => {
  const { ports: runtime, workspaceId } = scope;
  const { table } = runtime;
  const fingerprintClaims = fingerprintClaimRepository(table, workspaceId);
  const signals = signalRepository(table, workspaceId);
  const identity = identityOf(event);
  const seenAt = attempt.receivedAt.toISOString();
  const claim = await fingerprintClaims.findFingerprintClaim(identity);
  if (claim && !(await endsAnEarlierEpisode(scope, claim.signalId, event))) {
    const moved = await signals.writeSignalMove(claim.signalId, {
      move: 'resolve',
      at: seenAt,
      seen: true,
    });
    if (moved.kind === 'moved') {
      attempt.committed = true;
      return {
        signal: moved.after,
        inserted: false,
        deduplicated: true,
        resolved: true,
        counted: moveDelta(moved.before, 'RESOLVED'),
        correlate: false,
      };
    }
    if (moved.kind === 'conflict' && moved.current.status === 'RESOLVED') {
      // The same resolve again (a re-sent stream): nothing more to record.
      attempt.committed = true;
      return {
        signal: moved.current,
        inserted: false,
        deduplicated: true,
        resolved: false,
        counted: {},
        correlate: false,
      };
    }
    if (moved.kind === 'conflict') await fingerprintClaims.releaseFingerprintClaim(identity, claim.signalId);
  }
  const kept = await keptResolve(scope, event, attempt);
  if (kept) return kept;
  const record = newSignal(event, attempt.signalId, 'RESOLVED', seenAt);
  const inserted = await insertSignal(runtime, workspaceId, record, event.action);
  attempt.committed = true;
  return {
    signal: inserted ? record : ((await signals.findSignal(record.id)) ?? record),
    inserted,
    deduplicated: false,
    resolved: false,
    counted: inserted ? newSignalDelta(record) : {},
    correlate: false,
  };
};
