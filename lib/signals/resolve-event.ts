import type { Scope } from '#lib/identity/scope.ts';
import type { SignalEvent } from './signal-event.ts';
import { fingerprintClaimRepository } from './fingerprint-claim-repository.ts';
import { identityOf, newSignal } from './fingerprint-merge.ts';
import { ingestedDelta, moveDelta, newSignalDelta } from './signal-counter.ts';
import { insertSignal, signalRepository } from './signal-repository.ts';
import { type Attempt, type Written, unchanged } from './store-attempt.ts';

/**
 * A resolve kept as a signal of its own is claimed per episode (its fingerprint and start), so the same
 * resolve sent again answers that signal instead of keeping another. Undefined: this event keeps it.
 */
const keptResolve = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written | undefined> => {
  const { ports, workspaceId } = scope;
  const { table } = ports;
  const fingerprintClaims = fingerprintClaimRepository(table, workspaceId);
  const identity = identityOf(event);
  const episode = { ...identity, fingerprint: `${identity.fingerprint}#resolved#${event.signal.triggeredAt}` };
  const claimedAt = ports.clock.now().toISOString();
  if (await fingerprintClaims.putFingerprintClaim(episode, { signalId: attempt.signalId, claimedAt })) return undefined;
  const claim = await fingerprintClaims.findFingerprintClaim(episode);
  if (!claim || claim.signalId === attempt.signalId) return undefined;
  const target = await signalRepository(table, workspaceId).findMergeTarget(claim.signalId, attempt.mark);
  if (!target) return undefined;
  attempt.committed = true;
  return unchanged(target.signal, target.counted);
};

/**
 * When the resolved episode ended: the sender's `endsAt` (Alertmanager), else its start, which is all a
 * sender without an end time tells.
 */
const episodeEnd = (event: SignalEvent): string => {
  const { endsAt } = event.signal.metadata;
  return typeof endsAt === 'string' && !Number.isNaN(Date.parse(endsAt)) ? endsAt : event.signal.triggeredAt;
};

/**
 * A resolve of an episode that ended before the open signal's began (Alertmanager delivering an old
 * firing's resolve after a new one started) cannot end the newer problem; it is kept as a signal of its
 * own. One that ended after the open signal began is of the same episode, whatever start it names: one
 * fingerprint cannot fire twice at once (Alertmanager's start times move when its own state is reset).
 */
const endsAnEarlierEpisode = async (scope: Scope, signalId: string, event: SignalEvent) => {
  const { ports, workspaceId } = scope;
  const open = await signalRepository(ports.table, workspaceId).findSignal(signalId);
  return (
    open !== undefined && open.status !== 'RESOLVED' && Date.parse(episodeEnd(event)) < Date.parse(open.triggeredAt)
  );
};

/**
 * Step 2 for 'resolve' events: resolves the open signal of the fingerprint. The claim stays, marked as
 * resolved by the sender, so a re-sent event of the same episode answers this signal and an event of a
 * new episode starts a new one. With no open signal the resolve is still kept, as a RESOLVED signal of
 * its own (`resolved: false`), so the sender gets an id and the event is on record, and claims the
 * fingerprint, so the episode's trigger arriving after it answers that signal. The delivery's mark
 * goes on the signal it resolved or kept, so a retry of it is recognised as one.
 */
export const resolveEvent = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written> => {
  const { ports, workspaceId } = scope;
  const { table } = ports;
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
      ...(attempt.mark && { delivery: attempt.mark }),
    });
    if (moved.kind === 'moved') {
      attempt.committed = true;
      return {
        signal: moved.after,
        inserted: false,
        deduplicated: true,
        resolved: true,
        repeated: false,
        counted: moveDelta(moved.before, 'RESOLVED'),
        correlate: false,
      };
    }
    if (moved.kind === 'conflict' && moved.current.status === 'RESOLVED') {
      // The same resolve again (a re-sent stream, or a retry of its delivery): nothing more to record.
      const target = attempt.mark ? await signals.findMergeTarget(claim.signalId, attempt.mark) : undefined;
      attempt.committed = true;
      return target?.counted ? unchanged(target.signal, true, true) : unchanged(moved.current, false);
    }
    if (moved.kind === 'conflict') await fingerprintClaims.releaseFingerprintClaim(identity, claim.signalId);
  }
  const kept = await keptResolve(scope, event, attempt);
  if (kept) return kept;
  const record = newSignal(event, attempt.signalId, 'RESOLVED', seenAt);
  const inserted = await insertSignal(ports, workspaceId, record, event.action, attempt.mark);
  attempt.committed = true;
  // The episode's own trigger may still come (a sender delivering out of order, or both at once): with the
  // fingerprint's claim naming this signal, that trigger is a replay of an ended episode and answers it,
  // instead of opening a signal nothing would resolve; a trigger of a new episode starts its own. A claim
  // already there (a newer episode's open signal, or a concurrent trigger's) is left as it is.
  if (inserted && !claim)
    await fingerprintClaims.putFingerprintClaim(identity, { signalId: record.id, claimedAt: seenAt });
  return {
    signal: inserted ? record : ((await signals.findSignal(record.id)) ?? record),
    inserted,
    deduplicated: false,
    resolved: false,
    repeated: false,
    counted: inserted ? { ...newSignalDelta(record), ...ingestedDelta(attempt.receivedAt) } : {},
    correlate: false,
  };
};
