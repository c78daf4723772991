import { setTimeout as delay } from 'node:timers/promises';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { ServiceUnavailableError } from '#lib/http/errors.ts';
import { log } from '#lib/log/logger.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import type { Runtime } from '#lib/runtime/runtime.ts';
import {
  claimDelivery,
  completeDelivery,
  findDelivery,
  takeOverDelivery,
  type DeliveryOutcome,
  type DeliveryRef,
} from './delivery.ts';
import {
  findFingerprintClaim,
  putFingerprintClaim,
  releaseFingerprintClaim,
  type FingerprintIdentity,
} from './fingerprint-claim.ts';
import { countIngestedSignal } from './ingested-rollup.ts';
import { QUEUED_EVENT_SENDER, toQueueMessage, type QueuedSignalEvent } from './queued-signal-event.ts';
import { MERGING_STATUSES, type Signal, type SignalStatus } from './signal.ts';
import { addToSignalCounter, moveDelta, newSignalDelta, type SignalCounterValues } from './signal-counter.ts';
import { sourceKeyOf } from './signal-item.ts';
import { findSignal, insertSignal, mergeOccurrence, moveSignal } from './signal-repository.ts';
import { isStoreUnavailable } from './store-errors.ts';

export interface StoredSignalEvent {
  signalId: string;
  /** The event merged into an existing signal, or repeated a delivery already stored. */
  deduplicated: boolean;
  /** A resolving event resolved the open signal of its fingerprint. */
  resolved: boolean;
  /** The table refused the write for capacity; the event waits on the ingestion queue under `signalId`. */
  queued: boolean;
}

export interface SignalEventInput {
  event: NormalizedEvent;
  /** The sender's id of the delivery, when it gives one (`deliveryIdOf`). */
  delivery?: DeliveryRef;
}

/** The outcome with the signal as the write left it, when this call wrote or read it. */
export interface StoredSignal extends StoredSignalEvent {
  signal?: Signal;
  /** When the event was received: the signal's first sighting if it starts one, also when queued. */
  receivedAt: string;
}

/**
 * No attempt holds a delivery longer than the function running it may run, and the ingestion worker's
 * timeout is the longest (API functions stop at 15 s). A PROCESSING delivery older than that, plus a
 * margin for clock skew, belongs to an attempt that died between its claim and its write: it is taken over.
 */
export const DELIVERY_LEASE_MS = (QUEUE_SETTINGS.ingestion.consumerTimeoutSeconds + 5) * 1000;
/** How long a duplicate delivery waits for the attempt in progress to finish, before asking for a retry. */
const DELIVERY_WAIT_MS = 2_000;
/** A claim whose signal is not written yet is a concurrent creator for this long; after, a crash leftover. */
const CLAIM_SETTLE_MS = 5_000;
const POLL_MS = 25;
const CLAIM_ATTEMPTS = 3;

interface Attempt {
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

/**
 * Stores one normalized event (docs/data-model.md 5.7 "Storing one event"): delivery dedup, the fingerprint
 * claim that makes concurrent deliveries create one signal, merge or new signal, counters, the
 * correlation queue, then the delivery DONE. When the table refuses the write for capacity before any
 * signal changed, the event goes on the ingestion queue with a pre-assigned id and is answered as queued:
 * the sender gets its 2xx and the event is not lost. If the queue refuses it too, this throws.
 */
export const storeSignalEvent = async (
  runtime: Runtime,
  workspaceId: string,
  input: { event: NormalizedEvent; delivery?: { sender: string; id: string } },
): Promise<StoredSignalEvent> => {
  const { signalId, deduplicated, resolved, queued } = await storeSignal(runtime, workspaceId, input);
  return { signalId, deduplicated, resolved, queued };
};

/** `storeSignalEvent` that also gives the signal as written, for routes that answer with it. */
export const storeSignal = async (runtime: Runtime, workspaceId: string, input: SignalEventInput): Promise<StoredSignal> => {
  const attempt: Attempt = { signalId: runtime.ids.sortable(), receivedAt: runtime.clock.now(), committed: false };
  try {
    return await storeEvent(runtime, workspaceId, input, attempt);
  } catch (error) {
    if (attempt.committed || !isStoreUnavailable(error)) throw error;
    const queued: QueuedSignalEvent = {
      workspaceId,
      signalId: attempt.signalId,
      receivedAt: attempt.receivedAt.toISOString(),
      event: input.event,
      ...(input.delivery && { delivery: input.delivery }),
      ...(attempt.deliveryClaimedAt && { deliveryClaimedAt: attempt.deliveryClaimedAt }),
    };
    await runtime.queue.send('ingestion', [await toQueueMessage(runtime.objects, queued)]);
    log.warn('signal store unavailable; event queued for the ingestion worker', {
      workspaceId,
      signalId: attempt.signalId,
      error,
    });
    return { signalId: attempt.signalId, deduplicated: false, resolved: false, queued: true, receivedAt: queued.receivedAt };
  }
};

/**
 * The ingestion worker's store of a queued event, under its pre-assigned id. An event queued without a
 * delivery id is its own delivery (the pre-assigned id), so a redelivered message answers the stored
 * outcome instead of counting again. Throws on any failure, so the message is retried.
 */
export const storeQueuedSignalEvent = async (runtime: Runtime, queued: QueuedSignalEvent): Promise<StoredSignalEvent> => {
  const delivery = queued.delivery ?? { sender: QUEUED_EVENT_SENDER, id: queued.signalId };
  const { signalId, deduplicated, resolved } = await storeEvent(
    runtime,
    queued.workspaceId,
    { event: queued.event, delivery },
    {
      signalId: queued.signalId,
      receivedAt: new Date(queued.receivedAt),
      ...(queued.deliveryClaimedAt && { ownDeliveryClaim: queued.deliveryClaimedAt }),
      committed: false,
    },
  );
  return { signalId, deduplicated, resolved, queued: false };
};

/** What writing the event did to its signal. */
interface Written {
  signal: Signal;
  deduplicated: boolean;
  resolved: boolean;
  /** What the signal counter gains. */
  counted: SignalCounterValues;
  /** A new trigger signal, to be correlated. */
  correlate: boolean;
}

const storeEvent = async (
  runtime: Runtime,
  workspaceId: string,
  { event, delivery }: SignalEventInput,
  attempt: Attempt,
): Promise<StoredSignal> => {
  const { table } = runtime;
  if (delivery) {
    const known = await startDelivery(runtime, workspaceId, delivery, attempt);
    if (known) return known;
  }

  const written =
    event.action === 'resolve'
      ? await resolveEvent(runtime, workspaceId, event, attempt)
      : await openOrMerge(runtime, workspaceId, event, attempt);
  const outcome: DeliveryOutcome = { signalId: written.signal.id, deduplicated: written.deduplicated, resolved: written.resolved };

  // The event is stored: what follows is bookkeeping whose failure must not make the sender send it again.
  await bestEffort('signal counters', workspaceId, outcome.signalId, () => addToSignalCounter(table, workspaceId, written.counted));
  await bestEffort('ingestion rollup', workspaceId, outcome.signalId, () => countIngestedSignal(table, workspaceId, attempt.receivedAt));
  if (written.correlate) {
    await bestEffort('correlation enqueue (the sweep re-enqueues pending signals)', workspaceId, outcome.signalId, () =>
      runtime.queue.send('correlation', [{ workspaceId, signalId: outcome.signalId }]),
    );
  }
  if (delivery) {
    await bestEffort('delivery completion', workspaceId, outcome.signalId, () => completeDelivery(table, workspaceId, delivery, outcome));
  }
  return { ...outcome, queued: false, signal: written.signal, receivedAt: attempt.receivedAt.toISOString() };
};

const bestEffort = async (step: string, workspaceId: string, signalId: string, run: () => Promise<unknown>): Promise<void> => {
  try {
    await run();
  } catch (error) {
    log.warn(`signal stored, but ${step} failed`, { workspaceId, signalId, error });
  }
};

const ageMs = (runtime: Runtime, since: string): number => runtime.clock.now().getTime() - Date.parse(since);

/**
 * Step 1: claims the delivery. Undefined means "go on and store the event"; otherwise the answer for a
 * delivery already stored. A delivery another attempt holds is waited for briefly; if that attempt neither
 * finishes nor runs out of its lease meanwhile, the sender is asked to retry (503 with Retry-After): the
 * event is stored by then, or the lease is over and the retry stores it. Never a 2xx for an unstored event.
 */
const startDelivery = async (
  runtime: Runtime,
  workspaceId: string,
  delivery: DeliveryRef,
  attempt: Attempt,
): Promise<StoredSignal | undefined> => {
  const { table } = runtime;
  const claim = async (): Promise<boolean> => {
    const now = runtime.clock.now();
    if (!(await claimDelivery(table, workspaceId, delivery, attempt.signalId, now))) return false;
    attempt.deliveryClaimedAt = now.toISOString();
    return true;
  };
  const takeOver = async (seen: string, signalId: string | undefined): Promise<boolean> => {
    const now = runtime.clock.now();
    if (!(await takeOverDelivery(table, workspaceId, delivery, seen, now))) return false;
    attempt.deliveryClaimedAt = now.toISOString();
    // The signal the earlier attempt may have written is this event's: writing it again finds it.
    if (signalId) attempt.signalId = signalId;
    return true;
  };

  if (await claim()) return undefined;
  const receivedAt = attempt.receivedAt.toISOString();
  let leaseEndsIn = DELIVERY_LEASE_MS;
  for (let waited = 0; waited <= DELIVERY_WAIT_MS; waited += POLL_MS) {
    const record = await findDelivery(table, workspaceId, delivery);
    if (!record) {
      if (await claim()) return undefined;
      continue;
    }
    if (record.state === 'DONE') {
      return { signalId: record.signalId, deduplicated: true, resolved: record.resolved, queued: false, receivedAt };
    }
    const ours = record.claimedAt === attempt.ownDeliveryClaim;
    leaseEndsIn = DELIVERY_LEASE_MS - ageMs(runtime, record.claimedAt);
    if ((ours || leaseEndsIn <= 0) && (await takeOver(record.claimedAt, record.signalId))) return undefined;
    await delay(POLL_MS);
  }
  throw new ServiceUnavailableError('An earlier attempt of this delivery is still being stored: retry later', [
    `delivery: ${delivery.sender} ${delivery.id.slice(0, 100)} is in progress`,
  ], { 'retry-after': String(Math.max(1, Math.ceil(leaseEndsIn / 1000))) });
};

const identityOf = (event: NormalizedEvent): FingerprintIdentity => ({
  source: event.signal.source,
  type: event.signal.type,
  fingerprint: event.fingerprint,
});

const newSignal = (event: NormalizedEvent, id: string, status: SignalStatus, seenAt: string): Signal => {
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
const writeNewSignal = async (
  runtime: Runtime,
  workspaceId: string,
  event: NormalizedEvent,
  attempt: Attempt,
): Promise<Written> => {
  const signal = newSignal(event, attempt.signalId, 'OPEN', attempt.receivedAt.toISOString());
  const inserted = await insertSignal(runtime, workspaceId, signal, event.action);
  attempt.committed = true;
  const stored = inserted ? signal : ((await findSignal(runtime.table, workspaceId, signal.id)) ?? signal);
  return {
    signal: stored,
    deduplicated: false,
    resolved: false,
    counted: inserted ? newSignalDelta('OPEN', sourceKeyOf(signal.source)) : {},
    correlate: event.action === 'trigger',
  };
};

/** Step 2 for 'trigger' and 'record' events: a new signal, or one more occurrence of the open one. */
const openOrMerge = async (
  runtime: Runtime,
  workspaceId: string,
  event: NormalizedEvent,
  attempt: Attempt,
): Promise<Written> => {
  const { table } = runtime;
  const identity = identityOf(event);
  for (let tries = 0; tries < CLAIM_ATTEMPTS; tries += 1) {
    const claimedAt = runtime.clock.now().toISOString();
    if (await putFingerprintClaim(table, workspaceId, identity, { signalId: attempt.signalId, claimedAt })) {
      return writeNewSignal(runtime, workspaceId, event, attempt);
    }
    const merged = await mergeIntoClaimed(runtime, workspaceId, event, attempt);
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
const isReplayOfResolved = (signal: Signal, event: NormalizedEvent): boolean =>
  signal.status === 'RESOLVED' && signal.triggeredAt === event.signal.triggeredAt;

/**
 * Merges into the signal the claim names. Undefined when the claim is gone or stale (its signal is
 * RESOLVED by a person or in an earlier episode, or was never written by a creator that crashed), after
 * releasing it, so the caller claims again. A replay of a resolved episode answers its signal. A claim younger than CLAIM_SETTLE_MS whose signal is missing belongs to a concurrent creator
 * between its two writes, so this waits for it rather than starting a second signal.
 */
const mergeIntoClaimed = async (
  runtime: Runtime,
  workspaceId: string,
  event: NormalizedEvent,
  attempt: Attempt,
): Promise<Written | undefined> => {
  const { table } = runtime;
  const identity = identityOf(event);
  for (;;) {
    const claim = await findFingerprintClaim(table, workspaceId, identity);
    if (!claim) return undefined;
    if (claim.signalId === attempt.signalId) return writeNewSignal(runtime, workspaceId, event, attempt);
    const merged = await mergeOccurrence(table, workspaceId, claim.signalId, attempt.receivedAt.toISOString());
    if (merged) {
      attempt.committed = true;
      return { signal: merged, deduplicated: true, resolved: false, counted: {}, correlate: false };
    }
    const current = await findSignal(table, workspaceId, claim.signalId);
    if (current && isReplayOfResolved(current, event)) {
      attempt.committed = true;
      return { signal: current, deduplicated: true, resolved: false, counted: {}, correlate: false };
    }
    const settling = !current && ageMs(runtime, claim.claimedAt) < CLAIM_SETTLE_MS;
    const stillMerging = current !== undefined && (MERGING_STATUSES as readonly SignalStatus[]).includes(current.status);
    if (!settling && !stillMerging) {
      await releaseFingerprintClaim(table, workspaceId, identity, claim.signalId);
      return undefined;
    }
    await delay(POLL_MS + Math.random() * POLL_MS);
  }
};

/**
 * A resolve kept as a signal of its own is claimed per episode (its fingerprint and start), so the same
 * resolve sent again answers that signal instead of keeping another. Undefined: this event keeps it.
 */
const keptResolve = async (
  runtime: Runtime,
  workspaceId: string,
  event: NormalizedEvent,
  attempt: Attempt,
): Promise<Written | undefined> => {
  const { table } = runtime;
  const identity = identityOf(event);
  const episode = { ...identity, fingerprint: `${identity.fingerprint}#resolved#${event.signal.triggeredAt}` };
  const claimedAt = runtime.clock.now().toISOString();
  if (await putFingerprintClaim(table, workspaceId, episode, { signalId: attempt.signalId, claimedAt })) return undefined;
  const claim = await findFingerprintClaim(table, workspaceId, episode);
  if (!claim || claim.signalId === attempt.signalId) return undefined;
  const signal = await findSignal(table, workspaceId, claim.signalId);
  if (!signal) return undefined;
  attempt.committed = true;
  return { signal, deduplicated: true, resolved: false, counted: {}, correlate: false };
};

/**
 * A resolve of an episode that started before the open signal's (Alertmanager sends the resolve of an
 * old firing after a new one began) cannot end the newer problem; it is kept as a signal of its own.
 */
const endsAnEarlierEpisode = async (runtime: Runtime, workspaceId: string, signalId: string, event: NormalizedEvent) => {
  const open = await findSignal(runtime.table, workspaceId, signalId);
  return open !== undefined && open.status !== 'RESOLVED' && event.signal.triggeredAt < open.triggeredAt;
};

/**
 * Step 2 for 'resolve' events: resolves the open signal of the fingerprint. The claim stays, marked as
 * resolved by the sender, so a re-sent event of the same episode answers this signal and an event of a
 * new episode starts a new one. With no open signal the resolve is still kept, as a RESOLVED signal of
 * its own (`resolved: false`), so the sender gets an id and the event is on record.
 */
const resolveEvent = async (
  runtime: Runtime,
  workspaceId: string,
  event: NormalizedEvent,
  attempt: Attempt,
): Promise<Written> => {
  const { table } = runtime;
  const identity = identityOf(event);
  const seenAt = attempt.receivedAt.toISOString();
  const claim = await findFingerprintClaim(table, workspaceId, identity);
  if (claim && !(await endsAnEarlierEpisode(runtime, workspaceId, claim.signalId, event))) {
    const moved = await moveSignal(table, workspaceId, claim.signalId, { move: 'resolve', at: seenAt, seen: true });
    if (moved.kind === 'moved') {
      attempt.committed = true;
      return {
        signal: moved.after,
        deduplicated: true,
        resolved: true,
        counted: moveDelta(moved.before.status, 'RESOLVED'),
        correlate: false,
      };
    }
    if (moved.kind === 'conflict' && moved.current.status === 'RESOLVED') {
      // The same resolve again (a re-sent stream): nothing more to record.
      attempt.committed = true;
      return { signal: moved.current, deduplicated: true, resolved: false, counted: {}, correlate: false };
    }
    if (moved.kind === 'conflict') await releaseFingerprintClaim(table, workspaceId, identity, claim.signalId);
  }
  const kept = await keptResolve(runtime, workspaceId, event, attempt);
  if (kept) return kept;
  const record = newSignal(event, attempt.signalId, 'RESOLVED', seenAt);
  const inserted = await insertSignal(runtime, workspaceId, record, event.action);
  attempt.committed = true;
  return {
    signal: inserted ? record : ((await findSignal(table, workspaceId, record.id)) ?? record),
    deduplicated: false,
    resolved: false,
    counted: inserted ? newSignalDelta('RESOLVED', sourceKeyOf(record.source)) : {},
    correlate: false,
  };
};
