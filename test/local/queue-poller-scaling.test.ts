import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { createSqsQueue } from '#lib/ports/queue/sqs-queue.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import type { QueueSettings } from '#lib/ports/queue/queue-settings.ts';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';
import { startQueuePoller, type QueuePoller, type QueuePollerOptions } from '#infra/local/queue-poller.ts';
import { everyQueue } from '../support/every-queue.ts';
import { createRequestsInFlight } from '#infra/local/requests-in-flight.ts';
import { setTimeout as delay } from 'node:timers/promises';

// Batches are held open on purpose here, so the visibility timeout is long enough never to expire under them.
const settings: QueueSettings = {
  visibilityTimeoutSeconds: 60,
  maxReceiveCount: 2,
  batchSize: 10,
  consumerTimeoutSeconds: 30,
  maxConcurrency: 3,
};

let sqs: LocalSqs;
let queue: Queue;
let pollers: QueuePoller[];

beforeEach(async () => {
  sqs = await startSqsServer({
    settings: everyQueue(settings),
  });
  queue = createSqsQueue(sqs.client, sqs.queueUrl);
  pollers = [];
});

afterEach(async () => {
  await Promise.all(pollers.map((poller) => poller.stop()));
  await sqs.close();
});

const poll = (handler: QueuePollerOptions['handler'], options: Partial<QueuePollerOptions> = {}): QueuePoller => {
  const poller = startQueuePoller({ sqs, queue: 'ingestion', handler, ...options });
  pollers.push(poller);
  return poller;
};

/** A handler that records its batches and how many ran at once, each held until `holdUntil` says it may end. */
const recording = (holdUntil: (running: number) => boolean) => {
  const batches: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const waiting = new Set<() => void>();
  const handler = async (event: SQSEvent) => {
    batches.push(event.Records.length);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    if (holdUntil(running)) for (const release of waiting) release();
    else await new Promise<void>((resolve) => waiting.add(resolve));
    running -= 1;
    return undefined;
  };
  return { handler, batches, mostAtOnce: () => mostAtOnce };
};

describe('local SQS trigger, scaled to its backlog', () => {
  it('adds a batch at once after each full one, up to the maximum concurrency', async () => {
    await queue.send(
      'ingestion',
      Array.from({ length: 30 }, (_, n) => ({ n })),
    );
    // Every batch is held until three run at once: only a poller that scaled up lets them end.
    const { handler, batches, mostAtOnce } = recording((running) => running === 3);
    await poll(handler).idle();

    expect(batches).toEqual([10, 10, 10]);
    expect(mostAtOnce()).toBe(3);
  });

  it('gives a message a batch of its own when the running one holds the queue, as a slow receiver would', async () => {
    await queue.send('ingestion', [{ n: 'slow' }]);
    const seen: unknown[] = [];
    let releaseSlow!: () => void;
    let slowStarted!: () => void;
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    let secondHandled!: () => void;
    const handled = new Promise<void>((resolve) => (secondHandled = resolve));
    const poller = poll(async (event) => {
      const bodies = event.Records.map((record) => JSON.parse(record.body));
      seen.push(...bodies);
      if (bodies.some((body) => body.n === 'slow')) {
        slowStarted();
        await new Promise<void>((resolve) => (releaseSlow = resolve));
      } else secondHandled();
      return undefined;
    });
    await started;
    await queue.send('ingestion', [{ n: 'behind it' }]);

    await handled;
    expect(seen).toEqual([{ n: 'slow' }, { n: 'behind it' }]);
    releaseSlow();
    await poller.idle();
  });

  it('keeps to one batch while requests come, and scales up once they have stopped', async () => {
    await queue.send(
      'ingestion',
      Array.from({ length: 200 }, (_, n) => ({ n })),
    );
    const requests = createRequestsInFlight();
    requests.begin();
    let running = 0;
    const mostAtOnce = { busy: 0, after: 0 };
    let batchesWhileBusy = 0;
    const poller = poll(
      async () => {
        running += 1;
        const phase = requests.busy() ? 'busy' : 'after';
        mostAtOnce[phase] = Math.max(mostAtOnce[phase], running);
        // Every batch is full, which scales an unyielding poller up at once (the first test).
        if (phase === 'busy' && (batchesWhileBusy += 1) === 3) requests.end();
        await delay(20);
        running -= 1;
        return undefined;
      },
      { yieldTo: requests },
    );
    await poller.idle();

    // The request ended during the third batch; the trigger waited out the quiet period before scaling.
    expect(batchesWhileBusy).toBeGreaterThan(3);
    expect(mostAtOnce.busy).toBe(1);
    expect(mostAtOnce.after).toBeGreaterThan(1);
  });
});
