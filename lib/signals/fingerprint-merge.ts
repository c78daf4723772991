import type { Scope } from '#lib/identity/scope.ts';
import { setTimeout as delay } from 'node:timers/promises';
import type { SignalEvent } from './signal-event.ts';
import { DELIVERY_LEASE_MS, DELIVERY_WAIT_MS, deliveryInProgress } from './delivery-claim.ts';
import {
  type FingerprintClaim,
  type FingerprintIdentity,
  fingerprintClaimKey,
  fingerprintClaimRepository,
} from './fingerprint-claim-repository.ts';
import { type OpenSignal, cachedOpenSignal, forgetOpenSignal, rememberOpenSignal } from './open-signal-cache.ts';
import { MERGING_STATUSES, type Signal, type SignalStatus } from './signal.ts';
import { ingestedDelta, newSignalDelta } from './signal-counter.ts';
import { insertSignal, signalRepository } from './signal-repository.ts';
import { POLL_MS, ageMs, type Attempt, type Written, unchanged } from './store-attempt.ts';

/** A claim whose signal is not written yet is a concurrent creator for this long; after, a crash leftover. */
const CLAIM_SETTLE_MS = 5_000;
const CLAIM_ATTEMPTS = 3;

export const identityOf = (event: SignalEvent): FingerprintIdentity => ({
  source: event.signal.source,
  type: event.signal.type,
  fingerprint: event.fingerprint,
});

export const newSignal = (event: SignalEvent, id: string, status: SignalStatus, seenAt: string): Signal => {
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
  const { ports, workspaceId } = scope;
  const signal = newSignal(event, attempt.signalId, 'OPEN', attempt.receivedAt.toISOString());
  const inserted = await insertSignal(ports, workspaceId, signal, event.action, attempt.mark);
  attempt.committed = true;
  const claimSk = fingerprintClaimKey(workspaceId, identityOf(event)).sk;
  rememberOpenSignal(workspaceId, claimSk, { signalId: signal.id, staleMarks: [] }, ports.clock.now());
  const stored = inserted
    ? signal
    : ((await signalRepository(ports.table, workspaceId).findSignal(signal.id)) ?? signal);
  return {
    signal: stored,
    inserted,
    deduplicated: false,
    resolved: false,
    repeated: false,
    counted: inserted ? { ...newSignalDelta(signal), ...ingestedDelta(attempt.receivedAt) } : {},
    correlate: event.action === 'trigger',
  };
};

/**
 * One more occurrence of `signalId` in one conditional write; else the signal that refused it (undefined
 * when there is none), unless it refused because it counted this delivery already, which answers it.
 */
const mergeInto = async (
  scope: Scope,
  event: SignalEvent,
  { signalId, staleMarks }: OpenSignal,
  attempt: Attempt,
): Promise<{ written: Written } | { current: Signal | undefined }> => {
  const { ports, workspaceId } = scope;
  const signals = signalRepository(ports.table, workspaceId);
  const claimSk = fingerprintClaimKey(workspaceId, identityOf(event)).sk;
  const seenAt = attempt.receivedAt.toISOString();
  const merged = await signals.mergeOccurrence(signalId, seenAt, attempt.mark, staleMarks);
  if (merged) {
    attempt.committed = true;
    rememberOpenSignal(workspaceId, claimSk, { signalId, staleMarks: merged.staleMarks }, ports.clock.now());
    return { written: unchanged(merged.signal, false) };
  }
  const target = await signals.findMergeTarget(signalId, attempt.mark);
  if (target?.counted) {
    attempt.committed = true;
    return { written: unchanged(target.signal, true) };
  }
  forgetOpenSignal(workspaceId, claimSk);
  return { current: target?.signal };
};

/** Step 2 for 'trigger' and 'record' events: a new signal, or one more occurrence of the open one. */
export const openOrMerge = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written> => {
  const { ports, workspaceId } = scope;
  const identity = identityOf(event);
  const cached = cachedOpenSignal(workspaceId, fingerprintClaimKey(workspaceId, identity).sk, ports.clock.now());
  if (cached) {
    const outcome = await mergeInto(scope, event, cached, attempt);
    if ('written' in outcome) return outcome.written;
  }
  const fingerprintClaims = fingerprintClaimRepository(ports.table, workspaceId);
  for (let tries = 0; tries < CLAIM_ATTEMPTS; tries += 1) {
    const claim: FingerprintClaim = {
      signalId: attempt.signalId,
      claimedAt: ports.clock.now().toISOString(),
      ...(attempt.mark && { delivery: attempt.mark }),
    };
    if (await fingerprintClaims.putFingerprintClaim(identity, claim)) return writeNewSignal(scope, event, attempt);
    const merged = await mergeIntoClaimed(scope, event, attempt);
    if (merged) return merged;
  }
  throw new Error(`fingerprint claim of ${identity.source}/${identity.type} stayed contended`);
};

/** When the episode of a signal a sender's resolve kept ended: the `endsAt` that resolve carried (Alertmanager). */
const endedAt = (signal: Signal): number => {
  const { endsAt } = signal.metadata;
  return typeof endsAt === 'string' ? Date.parse(endsAt) : Number.NaN;
};

/**
 * A sender re-sending an episode that already ended: the claim's signal was resolved by a resolving
 * event (a person's resolve through the API ends the claim instead) and this event started at the same
 * instant (Alertmanager's `startsAt`, the paging tool's incident time, a pipeline run's start), or before
 * the resolve it was kept from said the episode ended (its trigger delivered after it: one fingerprint
 * cannot fire twice at once). It is the same problem, so it answers that signal; an event of a new episode
 * starts a new signal, as DECISIONS.md says.
 */
const isReplayOfResolved = (signal: Signal, event: SignalEvent): boolean =>
  signal.status === 'RESOLVED' &&
  (signal.triggeredAt === event.signal.triggeredAt || Date.parse(event.signal.triggeredAt) < endedAt(signal));

/**
 * Merges into the signal the claim names. Undefined when the claim is gone or stale (its signal is
 * RESOLVED by a person or in an earlier episode, or was never written by a creator that crashed), after
 * releasing it, so the caller claims again. A replay of a resolved episode answers its signal. A claim
 * younger than CLAIM_SETTLE_MS whose signal is missing belongs to a concurrent creator between its two
 * writes, so this waits for it rather than starting a second signal; one made by an earlier attempt of
 * this very delivery is its own, continued once the lease of that attempt is over (the sender is asked
 * to retry until then).
 */
const mergeIntoClaimed = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written | undefined> => {
  const { ports, workspaceId } = scope;
  const fingerprintClaims = fingerprintClaimRepository(ports.table, workspaceId);
  const identity = identityOf(event);
  for (let waited = 0; ; waited += POLL_MS) {
    const claim = await fingerprintClaims.findFingerprintClaim(identity);
    if (!claim) return undefined;
    if (claim.signalId === attempt.signalId) return writeNewSignal(scope, event, attempt);
    const outcome = await mergeInto(scope, event, { signalId: claim.signalId, staleMarks: [] }, attempt);
    if ('written' in outcome) return outcome.written;
    const { current } = outcome;
    if (current && isReplayOfResolved(current, event)) {
      attempt.committed = true;
      return unchanged(current, false);
    }
    const age = ageMs(ports.clock.now(), claim.claimedAt);
    if (!current && attempt.delivery && claim.delivery === attempt.mark) {
      if (age >= DELIVERY_LEASE_MS) {
        if (
          await fingerprintClaims.takeOverFingerprintClaim(identity, claim.claimedAt, ports.clock.now().toISOString())
        ) {
          attempt.signalId = claim.signalId;
          return writeNewSignal(scope, event, attempt);
        }
        continue;
      }
      if (waited >= DELIVERY_WAIT_MS) throw deliveryInProgress(attempt.delivery, DELIVERY_LEASE_MS - age);
    } else {
      const settling = !current && age < CLAIM_SETTLE_MS;
      const stillMerging =
        current !== undefined && (MERGING_STATUSES as readonly SignalStatus[]).includes(current.status);
      if (!settling && !stillMerging) {
        await fingerprintClaims.releaseFingerprintClaim(identity, claim.signalId);
        return undefined;
      }
    }
    await delay(POLL_MS + Math.random() * POLL_MS);
  }
};
