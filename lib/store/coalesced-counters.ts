import { addToCounters } from './add-to-counters.ts';
import type { Key } from './items.ts';
import type { Table } from './table.ts';

interface Batch {
  deltas: Record<string, number>;
  fields: Record<string, unknown>;
  written: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Per table and counter item: the additions waiting for the write in flight to end. */
const lanes = new WeakMap<Table, Map<string, { pending?: Batch }>>();

const newBatch = (): Batch => {
  const batch = { deltas: {}, fields: {} } as Batch;
  batch.written = new Promise<void>((resolve, reject) => {
    batch.resolve = resolve;
    batch.reject = reject;
  });
  return batch;
};

const drain = async (table: Table, key: Key, lane: { pending?: Batch }, laneKey: string): Promise<void> => {
  for (let batch = lane.pending; batch; batch = lane.pending) {
    lane.pending = undefined;
    try {
      await addToCounters(table, key, batch.deltas, batch.fields);
      batch.resolve();
    } catch (error) {
      batch.reject(error);
    }
  }
  lanes.get(table)?.delete(laneKey);
};

/**
 * `addToCounters` for a counter item many requests of one process add to at once (a workspace's signal
 * counter while a sender streams events): while one write to the item is in flight, the additions that
 * arrive are summed into the next single write, which each of them awaits. One write per request when
 * requests come one at a time, as in Lambda; far fewer than requests, and no queue of writes contending
 * for one item, when they overlap, as on the local server. Failures reach every addition of the batch.
 */
export const addToCountersTogether = (
  table: Table,
  key: Key,
  deltas: Record<string, number>,
  fields: Record<string, unknown> = {},
): Promise<void> => {
  const byKey = lanes.get(table) ?? new Map<string, { pending?: Batch }>();
  lanes.set(table, byKey);
  const laneKey = `${key.pk}\u0000${key.sk}`;
  const running = byKey.get(laneKey);
  const lane = running ?? {};
  byKey.set(laneKey, lane);
  const batch = lane.pending ?? newBatch();
  lane.pending = batch;
  for (const [name, delta] of Object.entries(deltas)) batch.deltas[name] = (batch.deltas[name] ?? 0) + delta;
  Object.assign(batch.fields, fields);
  if (!running) void drain(table, key, lane, laneKey);
  return batch.written;
};
