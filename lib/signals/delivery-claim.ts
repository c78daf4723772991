import { ServiceUnavailableError } from '#lib/contract/errors.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import type { DeliveryRef } from './delivery-mark.ts';

/**
 * How long a fingerprint claim whose signal is not written yet belongs to the attempt of the delivery that
 * made it. No attempt runs longer than the function running it may run, and the ingestion worker's timeout
 * is the longest (API functions stop at 15 s); past that, plus a margin for clock skew, the attempt died
 * between its claim and its signal write, and a retry of the same delivery takes the claim over.
 */
export const DELIVERY_LEASE_MS = (QUEUE_SETTINGS.ingestion.consumerTimeoutSeconds + 5) * 1000;

/** How long a retry waits for the attempt in progress to write its signal, before asking for a later retry. */
export const DELIVERY_WAIT_MS = 2_000;

/**
 * The answer to a retry that found an earlier attempt of its delivery still within its lease: never a 2xx
 * for an event not stored. The attempt holding it stores it, or died and the retry after the lease does.
 */
export const deliveryInProgress = (delivery: DeliveryRef, leaseEndsInMs: number): ServiceUnavailableError =>
  new ServiceUnavailableError(
    'An earlier attempt of this delivery is still being stored: retry later',
    [`delivery: ${delivery.sender} ${delivery.id.slice(0, 100)} is in progress`],
    { 'retry-after': String(Math.max(1, Math.ceil(leaseEndsInMs / 1000))) },
  );
