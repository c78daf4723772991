import { upsertChange } from '#lib/changes/upsert-change.ts';
import { upsertPipelineRun } from '#lib/pipelines/upsert-pipeline-run.ts';
import { queueSignalEvents } from '#lib/signals/queue-signal-events.ts';
import { storeSignalEvent, type StoredSignalEvent } from '#lib/signals/store-signal-event.ts';
import { eventDeliveryIds } from './delivery-id.ts';
import { boundedEvent } from './event-bounds.ts';
import type { NormalizedEvent } from './normalized-event.ts';
import { PayloadError } from './payload-error.ts';
import { withRepositoryOwners } from './repository-owners.ts';
import { type IngestionSender, senderNamed } from './senders/index.ts';
import { verifyDeliverySignature } from './webhook-secrets.ts';
import type { Scope } from '#lib/identity/scope.ts';

export interface Delivery {
  sender: IngestionSender;
  /** The parsed JSON body. */
  body: unknown;
  /** The body text as received, which signatures are computed over. */
  rawBody: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** The service an integration key is for: the service of every event that names none. */
  serviceId?: string;
}

interface IngestedEvent {
  signalId: string;
  deduplicated: boolean;
  resolved: boolean;
  /** The pipeline run the event recorded, if it was about one. */
  pipelineRunId?: string;
  /** The CHANGE ticket the event recorded, if it was a deployment. */
  changeId?: string;
  /** The event came in a large batch: it is durably queued and stored within seconds, under `signalId`. */
  queued?: true;
}

/** The spec's answer (the first event's signal) plus every event's own outcome, in payload order. */
export interface IngestedDelivery {
  signalId: string;
  deduplicated: boolean;
  source: IngestionSender;
  signals: IngestedEvent[];
}

/**
 * A payload with more events than this is not stored while the sender waits (3,000 alerts would take
 * tens of seconds, near API Gateway's 29 s): its events go through the ingestion queue instead.
 */
export const MAX_EVENTS_STORED_WHILE_WAITING = 100;

const onService = (event: NormalizedEvent, serviceId: string): NormalizedEvent => ({
  ...event,
  signal: { ...event.signal, serviceId },
});

const sameThingKey = (event: NormalizedEvent): string => `${event.signal.type}\u0000${event.fingerprint}`;

/**
 * The events of a large payload that may be queued: those about a thing no other event of the payload is
 * about (events about one thing must be stored in payload order, which a queue does not keep), and
 * without a pipeline run or change, which are stored with their signal.
 */
const queueableIndexes = (events: readonly NormalizedEvent[]): number[] => {
  if (events.length <= MAX_EVENTS_STORED_WHILE_WAITING) return [];
  const counts = new Map<string, number>();
  for (const event of events) counts.set(sameThingKey(event), (counts.get(sameThingKey(event)) ?? 0) + 1);
  return events.flatMap((event, index) =>
    counts.get(sameThingKey(event)) === 1 && !event.pipelineRun && !event.change ? [index] : [],
  );
};

/**
 * Events about the same thing (one fingerprint: an incident's trigger and resolve in one batch) are stored in
 * payload order; events about different things at once, so a large alert group does not wait on itself.
 */
const inPayloadOrderPerFingerprint = async <T>(
  events: readonly NormalizedEvent[],
  store: (event: NormalizedEvent, index: number) => Promise<T>,
): Promise<T[]> => {
  const groups = new Map<string, number[]>();
  events.forEach((event, index) => {
    const key = sameThingKey(event);
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const results = new Array<T>(events.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      for (const index of indexes) results[index] = await store(events[index] as NormalizedEvent, index);
    }),
  );
  return results;
};

/**
 * One ingestion POST (docs/ingestion.md): the signature when the workspace set a secret for the sender (401
 * before anything is stored), the sender's normalizer (a payload it cannot read is a 400 with field messages),
 * the owner of the repository of an event that names no service, then for every event its signal (delivery
 * and fingerprint dedup), its pipeline run and its change. It returns only once all of them are stored, or,
 * for the queueable events of a payload over MAX_EVENTS_STORED_WHILE_WAITING, durably queued, so an accepted
 * webhook is never lost; every write is idempotent, so a redelivery after a failure repairs whatever a crash
 * left half done.
 */
export const ingestDelivery = async (scope: Scope, delivery: Delivery): Promise<IngestedDelivery> => {
  const { sender } = delivery;
  const { ports } = scope;
  await verifyDeliverySignature(scope, delivery);
  const normalize = await senderNamed(sender).normalizer();
  const events = await withRepositoryOwners(
    scope,
    normalize(delivery.body, delivery.headers, ports.clock.now())
      .map((event) => (delivery.serviceId && !event.signal.serviceId ? onService(event, delivery.serviceId) : event))
      .map(boundedEvent),
  );
  if (events.length === 0) throw new PayloadError(sender, ['body: carries no event']);
  const ids = eventDeliveryIds(sender, delivery.headers, delivery.body, events.length);
  const inputOf = (event: NormalizedEvent, index: number) => {
    const deliveryId = ids[index];
    return { event, ...(deliveryId && { delivery: { sender, id: deliveryId } }) };
  };

  const queuedIndexes = queueableIndexes(events);
  const queuedOutcomes = await queueSignalEvents(
    scope,
    queuedIndexes.map((index) => inputOf(events[index] as NormalizedEvent, index)),
  );
  const queued = new Map(
    queuedIndexes.map((index, position) => [index, queuedOutcomes[position] as StoredSignalEvent]),
  );

  const signals = await inPayloadOrderPerFingerprint(events, async (event, index): Promise<IngestedEvent> => {
    const wasQueued = queued.get(index);
    if (wasQueued) {
      return { signalId: wasQueued.signalId, deduplicated: false, resolved: false, queued: true };
    }
    const [stored, run, change] = await Promise.all([
      storeSignalEvent(scope, inputOf(event, index)),
      event.pipelineRun && upsertPipelineRun(scope, event.pipelineRun),
      event.change && upsertChange(scope, event.change),
    ]);
    return {
      signalId: stored.signalId,
      deduplicated: stored.deduplicated,
      resolved: stored.resolved,
      ...(run && { pipelineRunId: run.runId }),
      ...(change && { changeId: change.changeId }),
    };
  });

  const first = signals[0] as IngestedEvent;
  return { signalId: first.signalId, deduplicated: first.deduplicated, source: sender, signals };
};
