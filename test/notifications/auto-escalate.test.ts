import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as slaSweep } from '#functions/sla-sweep/index.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { team } from '../support/team.ts';
import { INCIDENTS, V1, mailTo } from './support.ts';

const MINUTE = 60_000;
let client: TestClient;

beforeAll(async () => {
  client = await startTestStack();
});

afterEach(() => installPorts(client.stack.ports));

afterAll(async () => {
  await client?.stack.stop();
});

/** Requests and the sweep see the clock at `instant` until the ports are installed again. */
const clockAt = (instant: Date): void => {
  const clock: Clock = { now: () => instant };
  installPorts({ ...client.stack.ports, clock });
};

const sweepAt = async (instant: Date): Promise<void> => {
  clockAt(instant);
  try {
    await slaSweep();
    await client.stack.deliveriesIdle();
  } finally {
    installPorts(client.stack.ports);
  }
};

describe('turning autoEscalate on', () => {
  it('escalates an incident opened before only from that moment on, starting at the first escalation', async () => {
    const ops = await team(client, 'Latecomers');
    // Opened two hours ago, so the default 15-minute response time is long past.
    clockAt(new Date(Date.now() - 120 * MINUTE));
    const opened = await client.request(
      'POST',
      INCIDENTS,
      { summary: 'Queue backlog', priority: 'HIGH', serviceArea: 'jobs' },
      ops.admin.auth,
    );
    expect(opened.status, opened.text).toBe(201);
    installPorts(client.stack.ports);
    const { id, createdAt } = opened.body.data;
    const later = (ms: number) => new Date(Date.parse(createdAt) + ms);
    const escalations = async () =>
      (await mailTo(client, ops.onCall.email)).filter(({ subject }) => subject.includes(`${id} not acknowledged`));

    const turnedOn = await client.request('PUT', `${V1}/ims/config`, { autoEscalate: true }, ops.admin.auth);
    expect(turnedOn.status, turnedOn.text).toBe(200);
    const since = Date.parse(turnedOn.body.data.autoEscalateSince);
    expect(since).toBeGreaterThan(later(119 * MINUTE).getTime());

    await sweepAt(new Date(since + MINUTE));
    expect(await escalations()).toEqual([]);

    await sweepAt(new Date(since + 15 * MINUTE + 1_000));
    expect((await escalations()).map(({ subject }) => subject)).toEqual([
      `[HIGH] ${id} not acknowledged, escalation 1: Queue backlog`,
    ]);
  });
});
