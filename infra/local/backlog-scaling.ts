import { EventEmitter, once } from 'node:events';
import type { RequestsInFlight } from './requests-in-flight.ts';

/**
 * The batch a yielding trigger takes while requests come. Lambda hands over fewer messages than the batch size
 * whenever fewer are there; a batch's records run side by side, so a full one beside the requests took their
 * store calls' turn ten at a time (docs/performance.md, "Against another commit").
 */
const YIELDING_BATCH = 2;

/** How long every running batch may hold the queue before a message arriving behind them gets a consumer of its own. */
const SLOW_BATCH_MS = 500;

export interface BacklogScaling {
  /** Resolves once consumer `index` may receive, or `signal` aborts. */
  admitted(index: number, signal: AbortSignal): Promise<void>;
  /** The most messages the next receive may take. */
  batchLimit(): number;
  /** After each receive: a full batch says more waits behind it (one more consumer), a short one says it is drained (one fewer). */
  received(messages: number): void;
  /** A message arrived while `batchesRunning` batches run. */
  arrived(batchesRunning: number): void;
  stop(): void;
}

/**
 * How many of a poller's consumers may receive, from 1 to `concurrency`, as the event source mapping scales its
 * pollers to the backlog. A message that arrives while every allowed consumer is busy, and still is
 * SLOW_BATCH_MS later, gets one more: a batch waiting on a slow receiver holds the queue no longer than that.
 * Given `yieldTo`, while requests come every consumer but the first waits, and the first takes YIELDING_BATCH.
 */
export const backlogScaling = (
  { concurrency, batchSize, yieldTo }: { concurrency: number; batchSize: number; yieldTo?: RequestsInFlight },
  batchesRunning: () => number,
): BacklogScaling => {
  let allowed = 1;
  const scaled = new EventEmitter();
  scaled.setMaxListeners(0);
  const allow = (consumers: number): void => {
    allowed = Math.min(concurrency, Math.max(1, consumers));
    scaled.emit('scaled');
  };
  let slowBatchCheck: NodeJS.Timeout | undefined;
  return {
    async admitted(index, signal) {
      for (;;) {
        // An abort ends the wait as a scaling does: the caller looks at the signal next.
        while (index >= allowed && !signal.aborted) await once(scaled, 'scaled', { signal }).catch(() => undefined);
        if (index === 0 || !yieldTo?.busy() || signal.aborted) return;
        await yieldTo.none(signal);
      }
    },
    batchLimit: () => (yieldTo?.busy() ? Math.min(YIELDING_BATCH, batchSize) : batchSize),
    received(messages) {
      allow(messages === batchSize ? allowed + 1 : allowed - 1);
    },
    arrived(running) {
      if (running < allowed || slowBatchCheck || allowed >= concurrency) return;
      slowBatchCheck = setTimeout(() => {
        slowBatchCheck = undefined;
        if (batchesRunning() >= allowed) allow(allowed + 1);
      }, SLOW_BATCH_MS);
      slowBatchCheck.unref();
    },
    stop() {
      clearTimeout(slowBatchCheck);
    },
  };
};
