import type { Scope } from '#lib/identity/scope.ts';
import type { NormalizedAction, SignalEvent } from './signal-event.ts';
import { acknowledgeEvent } from './acknowledge-event.ts';
import { log } from '#lib/log/logger.ts';
import { type DeliveryRef, deliveryMarkOf } from './delivery-mark.ts';
import { openOrMerge } from './fingerprint-merge.ts';
import { resolveEvent } from './resolve-event.ts';
import { QUEUED_EVENT_SENDER, toQueueMessage, type QueuedSignalEvent } from './queued-signal-event.ts';
import type { Signal } from './signal.ts';
import { signalCounterRepository } from './signal-counter-repository.ts';
import { followAcknowledgement, followResolution } from './follow-resolution.ts';
import { isStoreUnavailable } from '#lib/store/store-errors.ts';
import type { Attempt, Written } from './store-attempt.ts';
import { correlationLaneOf } from './correlation-lane.ts';

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
  event: SignalEvent;
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
 * Stores one normalized event (docs/data-model.md 5.7 "Storing one event"): the fingerprint claim that
 * makes concurrent deliveries create one signal and a new signal, or one conditional merge into the open
 * signal, either carrying the delivery's mark so a retried delivery counts once; then the counters of a
 * new signal and the correlation queue. When the table refuses the write for capacity before any
 * signal changed, the event goes on the ingestion queue with a pre-assigned id and is answered as queued:
 * the sender gets its 2xx and the event is not lost. If the queue refuses it too, this throws.
 */
export const storeSignalEvent = async (scope: Scope, input: SignalEventInput): Promise<StoredSignalEvent> => {
  const { signalId, deduplicated, resolved, queued } = await storeSignal(scope, input);
  return { signalId, deduplicated, resolved, queued };
};

/** `storeSignalEvent` that also gives the signal as written, for routes that answer with it. */
export const storeSignal = async (scope: Scope, input: SignalEventInput): Promise<StoredSignal> => {
  const { ports, workspaceId } = scope;
  const attempt = attemptOf(ports.ids.sortable(), ports.clock.now(), input.delivery);
  try {
    return await storeEvent(scope, input, attempt, 'sender');
  } catch (error) {
    if (attempt.committed || !isStoreUnavailable(error)) throw error;
    const queued: QueuedSignalEvent = {
      workspaceId,
      signalId: attempt.signalId,
      receivedAt: attempt.receivedAt.toISOString(),
      event: input.event,
      ...(input.delivery && { delivery: input.delivery }),
    };
    await ports.queue.send('ingestion', [await toQueueMessage(ports.objects, queued)]);
    log.warn('signal store unavailable; event queued for the ingestion worker', {
      workspaceId,
      signalId: attempt.signalId,
      error,
    });
    return {
      signalId: attempt.signalId,
      deduplicated: false,
      resolved: false,
      queued: true,
      receivedAt: queued.receivedAt,
    };
  }
};

/**
 * The ingestion worker's store of a queued event, under its pre-assigned id. An event queued without a
 * delivery id is its own delivery (the pre-assigned id), so a redelivered message answers the stored
 * outcome instead of counting again. Throws on any failure, so the message is retried.
 */
export const storeQueuedSignalEvent = async (scope: Scope, queued: QueuedSignalEvent): Promise<StoredSignalEvent> => {
  const delivery = queued.delivery ?? { sender: QUEUED_EVENT_SENDER, id: queued.signalId };
  const { signalId, deduplicated, resolved } = await storeEvent(
    scope,
    { event: queued.event, delivery },
    attemptOf(queued.signalId, new Date(queued.receivedAt), delivery),
    'queue',
  );
  return { signalId, deduplicated, resolved, queued: false };
};

const attemptOf = (signalId: string, receivedAt: Date, delivery: DeliveryRef | undefined): Attempt => ({
  signalId,
  receivedAt,
  committed: false,
  ...(delivery && { delivery, mark: deliveryMarkOf(delivery) }),
});

/**
 * Who handed the event over: its sender, or the ingestion queue, whose message SQS may deliver again
 * after the event was stored.
 */
type Receipt = 'sender' | 'queue';

/**
 * Counts what the event did, once per event: a new signal is ingested; an event folded into an existing
 * signal, or a delivery the sender sent again, is deduplicated. A try that finds the signal an earlier
 * try of the same event wrote counts nothing, nor does a queued message found already stored: the
 * receive that stored it counted it.
 */
const countEvent = (scope: Scope, written: Written, receipt: Receipt): void => {
  const { metrics } = scope.ports;
  if (written.repeated && receipt === 'queue') return;
  if (written.deduplicated) metrics.count('SignalsDeduplicated');
  else if (written.inserted) metrics.count('SignalsIngested');
};

/** Step 2 of storing an event, by what the event does. */
const STEPS: Readonly<
  Record<NormalizedAction, (scope: Scope, event: SignalEvent, attempt: Attempt) => Promise<Written>>
> = { trigger: openOrMerge, record: openOrMerge, resolve: resolveEvent, acknowledge: acknowledgeEvent };

const storeEvent = async (
  scope: Scope,
  { event }: SignalEventInput,
  attempt: Attempt,
  receipt: Receipt,
): Promise<StoredSignal> => {
  const { ports, workspaceId } = scope;
  const written = await STEPS[event.action](scope, event, attempt);
  countEvent(scope, written, receipt);
  const signalId = written.signal.id;

  // The event is stored: what follows is bookkeeping whose failure must not make the sender send it again.
  // Both run at once: neither waits for the other, and the sender waits for neither longer than it must.
  await Promise.all([
    Object.keys(written.counted).length > 0 &&
      bestEffort('signal counters', workspaceId, signalId, () =>
        signalCounterRepository(ports.table, workspaceId).addToSignalCounter(written.counted),
      ),
    written.correlate &&
      bestEffort('correlation enqueue (the sweep re-enqueues pending signals)', workspaceId, signalId, () =>
        ports.queue.send(correlationLaneOf(workspaceId, written.signal, attempt.receivedAt), [
          { workspaceId, signalId },
        ]),
      ),
    written.resolved &&
      bestEffort('resolved-signal enqueue', workspaceId, signalId, () => followResolution(scope, written.signal)),
    written.acknowledged &&
      bestEffort('acknowledged-signal enqueue', workspaceId, signalId, () =>
        followAcknowledgement(scope, written.signal),
      ),
  ]);
  return {
    signalId,
    deduplicated: written.deduplicated,
    resolved: written.resolved,
    queued: false,
    signal: written.signal,
    receivedAt: attempt.receivedAt.toISOString(),
  };
};

const bestEffort = async (
  step: string,
  workspaceId: string,
  signalId: string,
  run: () => Promise<unknown>,
): Promise<void> => {
  try {
    await run();
  } catch (error) {
    log.warn(`signal stored, but ${step} failed`, { workspaceId, signalId, error });
  }
};
