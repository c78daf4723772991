import type { Scope } from '#lib/identity/scope.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { ServiceUnavailableError } from '#lib/contract/errors.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { type DeliveryOutcome, type DeliveryRef, deliveryRepository } from './delivery-repository.ts';
import { POLL_MS, ageMs, type Attempt } from './store-attempt.ts';

/**
 * No attempt holds a delivery longer than the function running it may run, and the ingestion worker's
 * timeout is the longest (API functions stop at 15 s). A PROCESSING delivery older than that, plus a
 * margin for clock skew, belongs to an attempt that died between its claim and its write: it is taken over.
 */
export const DELIVERY_LEASE_MS = (QUEUE_SETTINGS.ingestion.consumerTimeoutSeconds + 5) * 1000;
/** How long a duplicate delivery waits for the attempt in progress to finish, before asking for a retry. */
const DELIVERY_WAIT_MS = 2_000;

/**
 * Step 1 of storing an event: claims the delivery. Undefined means "go on and store the event"; otherwise
 * the outcome of the delivery already stored. A delivery another attempt holds is waited for briefly; if
 * that attempt neither finishes nor runs out of its lease meanwhile, the sender is asked to retry (503 with
 * Retry-After): the event is stored by then, or the lease is over and the retry stores it. Never a 2xx for
 * an unstored event.
 */
export const startDelivery = async (
  scope: Scope,
  delivery: DeliveryRef,
  attempt: Attempt,
): Promise<DeliveryOutcome | undefined> => {
  const { ports: runtime, workspaceId } = scope;
  const { table } = runtime;
  const deliveries = deliveryRepository(table, workspaceId);
  const claim = async (): Promise<boolean> => {
    const now = runtime.clock.now();
    if (!(await deliveries.claimDelivery(delivery, attempt.signalId, now))) return false;
    attempt.deliveryClaimedAt = now.toISOString();
    return true;
  };
  const takeOver = async (seen: string, signalId: string | undefined): Promise<boolean> => {
    const now = runtime.clock.now();
    if (!(await deliveries.takeOverDelivery(delivery, seen, now))) return false;
    attempt.deliveryClaimedAt = now.toISOString();
    // The signal the earlier attempt may have written is this event's: writing it again finds it.
    if (signalId) attempt.signalId = signalId;
    return true;
  };

  if (await claim()) return undefined;
  let leaseEndsIn = DELIVERY_LEASE_MS;
  for (let waited = 0; waited <= DELIVERY_WAIT_MS; waited += POLL_MS) {
    const record = await deliveries.findDelivery(delivery);
    if (!record) {
      if (await claim()) return undefined;
      continue;
    }
    if (record.state === 'DONE') {
      return { signalId: record.signalId, deduplicated: true, resolved: record.resolved };
    }
    const ours = record.claimedAt === attempt.ownDeliveryClaim;
    leaseEndsIn = DELIVERY_LEASE_MS - ageMs(runtime, record.claimedAt);
    if ((ours || leaseEndsIn <= 0) && (await takeOver(record.claimedAt, record.signalId))) return undefined;
    await delay(POLL_MS);
  }
  throw new ServiceUnavailableError(
    'An earlier attempt of this delivery is still being stored: retry later',
    [`delivery: ${delivery.sender} ${delivery.id.slice(0, 100)} is in progress`],
    { 'retry-after': String(Math.max(1, Math.ceil(leaseEndsIn / 1000))) },
  );
};
