import { upsertChange } from '#lib/changes/upsert-change.ts';
import { upsertPipelineRun } from '#lib/pipelines/upsert-pipeline-run.ts';
import type { Runtime } from '#lib/runtime/runtime.ts';
import { storeSignalEvent } from '#lib/signals/store-signal-event.ts';
import { deliveryIdOf } from './delivery-id.ts';
import { NORMALIZERS } from './index.ts';
import type { IngestionSender, NormalizedEvent } from './normalized-event.ts';
import { PayloadError } from './payload-error.ts';
import { verifyDeliverySignature } from './webhook-secrets.ts';

export interface Delivery {
  sender: IngestionSender;
  /** The parsed JSON body. */
  body: unknown;
  /** The body text as received, which signatures are computed over. */
  rawBody: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** Who posted it, as history names them (`api-key:<name>`). */
  actor: string;
}

export interface IngestedEvent {
  signalId: string;
  deduplicated: boolean;
  resolved: boolean;
  /** The pipeline run the event recorded, if it was about one. */
  pipelineRunId?: string;
  /** The CHANGE ticket the event recorded, if it was a deployment. */
  changeId?: string;
}

/** The spec's answer (the first event's signal) plus every event's own outcome, in payload order. */
export interface IngestedDelivery {
  signalId: string;
  deduplicated: boolean;
  source: IngestionSender;
  signals: IngestedEvent[];
}

/**
 * The delivery id of each event: the sender's own id for a single event; `<id>#<index>` for each event of a
 * payload that carries several, so a redelivery of the same body matches event by event. Senders that batch
 * (Alertmanager groups, paging-tool v2 messages) give no delivery id: their events deduplicate by fingerprint.
 */
const deliveryIds = (sender: IngestionSender, delivery: Delivery, count: number): (string | undefined)[] => {
  const id = deliveryIdOf(sender, delivery.headers, delivery.body);
  return Array.from({ length: count }, (_unused, index) => (id && count > 1 ? `${id}#${index}` : id));
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
    const key = `${event.signal.type}\u0000${event.fingerprint}`;
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
 * then for every event its signal (delivery and fingerprint dedup), its pipeline run and its change. It returns
 * only once all of them are stored, so an accepted webhook is never lost; every write is idempotent, so a
 * redelivery after a failure repairs whatever a crash left half done.
 */
export const ingestDelivery = async (runtime: Runtime, workspaceId: string, delivery: Delivery): Promise<IngestedDelivery> => {
  const { sender } = delivery;
  await verifyDeliverySignature(runtime, workspaceId, sender, delivery.headers, delivery.rawBody);
  const events = NORMALIZERS[sender](delivery.body, delivery.headers, runtime.clock.now());
  if (events.length === 0) throw new PayloadError(sender, ['body: carries no event']);
  const ids = deliveryIds(sender, delivery, events.length);

  const signals = await inPayloadOrderPerFingerprint(events, async (event, index): Promise<IngestedEvent> => {
    const deliveryId = ids[index];
    const [stored, run, change] = await Promise.all([
      storeSignalEvent(runtime, workspaceId, { event, ...(deliveryId && { delivery: { sender, id: deliveryId } }) }),
      event.pipelineRun && upsertPipelineRun(runtime, workspaceId, event.pipelineRun),
      event.change && upsertChange(runtime, workspaceId, event.change, delivery.actor),
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
