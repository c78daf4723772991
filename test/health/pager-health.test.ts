import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalHealth } from '#infra/local/local-health.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const MINUTE = 60_000;

// In AWS: test/infra/pager-health-alarms.test.ts.
describe("the pager's own health, locally", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startTestStack();
  });
  afterAll(async () => {
    await client?.stack.stop();
  });

  it('says the sweep stopped once it missed two intervals, and no longer once it ran', async () => {
    let now = new Date('2026-03-01T10:00:00Z');
    const health = createLocalHealth({
      sqs: client.stack.queues,
      metrics: client.stack.metrics,
      clock: { now: () => now },
      sweepIntervalMs: MINUTE,
    });
    expect((await health.snapshot()).sweep).toEqual({ intervalSeconds: 60, lastRunAt: null, stopped: false });
    now = new Date(now.getTime() + 5 * MINUTE + 1);
    expect((await health.snapshot()).sweep.stopped).toBe(true);
    health.sweepRan();
    expect((await health.snapshot()).sweep).toEqual({
      intervalSeconds: 60,
      lastRunAt: now.toISOString(),
      stopped: false,
    });
  });

  it('serves the health figures with the metrics', async () => {
    const reply = await client.request('GET', '/_local/metrics');
    expect(reply.status).toBe(200);
    expect(reply.body.data.health).toMatchObject({
      sweep: { intervalSeconds: 60, stopped: false },
      notifications: { lateAfterMinutes: 10, late: false },
      deadLetters: { ingestion: 0, correlation: 0, mail: 0, notifications: 0 },
    });
  });
});
