import type { Scope } from '#lib/identity/scope.ts';
import type { SignalEvent } from './signal-event.ts';
import { fingerprintClaimRepository } from './fingerprint-claim-repository.ts';
import { identityOf, openOrMerge } from './fingerprint-merge.ts';
import { moveDelta } from './signal-counter.ts';
import { signalRepository } from './signal-repository.ts';
import { type Attempt, type Written, unchanged } from './store-attempt.ts';

/**
 * An acknowledge that found no open signal is kept as a record of its own (a type apart from the trigger's, so
 * it never holds the fingerprint's claim), so the sender gets an id and the event is on record.
 */
const asRecord = (event: SignalEvent): SignalEvent => ({
  ...event,
  signal: { ...event.signal, type: `${event.signal.type}_acknowledge`, severity: 'LOW' },
  action: 'record',
});

/**
 * Step 2 for 'acknowledge' events (a paging tool's acknowledge, docs/ingestion.md): the open signal of the
 * fingerprint moves to ACKNOWLEDGED, as a person's acknowledge moves it, and carries the delivery's mark. A
 * signal already acknowledged or suppressed is left as it is (a retried delivery changes nothing); with no open
 * signal the event is kept as a record. The signal's incident follows through the correlation queue.
 */
export const acknowledgeEvent = async (scope: Scope, event: SignalEvent, attempt: Attempt): Promise<Written> => {
  const { ports, workspaceId } = scope;
  const claim = await fingerprintClaimRepository(ports.table, workspaceId).findFingerprintClaim(identityOf(event));
  if (!claim) return openOrMerge(scope, asRecord(event), attempt);
  const moved = await signalRepository(ports.table, workspaceId).writeSignalMove(claim.signalId, {
    move: 'acknowledge',
    at: attempt.receivedAt.toISOString(),
    seen: true,
    ...(attempt.mark && { delivery: attempt.mark }),
  });
  if (moved.kind === 'missing') return openOrMerge(scope, asRecord(event), attempt);
  attempt.committed = true;
  if (moved.kind === 'conflict') return unchanged(moved.current, false);
  return {
    signal: moved.after,
    inserted: false,
    deduplicated: true,
    resolved: false,
    acknowledged: true,
    repeated: false,
    counted: moveDelta(moved.before, 'ACKNOWLEDGED'),
    correlate: false,
  };
};
