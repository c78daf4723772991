import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueuePoller } from '#infra/local/queue-poller.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { queueDepth } from '../signals/support.ts';
import { getSignal, postSignal, unique, worker } from './support.ts';

describe('the two correlation lanes', () => {
  let client: TestClient;
  let owner: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    owner = await signUpBusiness(client, { businessName: unique('Lanes Co') });
  });
  afterAll(() => client.stack.stop());

  it("opens a new service's incident while another service's flood still waits to be correlated", async () => {
    const flood = [await postSignal(client, owner.auth, { severity: 'HIGH', serviceId: 'checkout' })];
    for (let n = 0; n < 20; n += 1)
      flood.push(await postSignal(client, owner.auth, { severity: 'HIGH', serviceId: 'checkout' }));
    const newProblem = await postSignal(client, owner.auth, { severity: 'HIGH', serviceId: 'search' });
    // Each service's first signal goes ahead; the flood's others wait behind.
    expect(await queueDepth(client.stack.queues, 'correlation-first')).toBe(2);
    expect(await queueDepth(client.stack.queues, 'correlation')).toBe(20);

    let releaseBacklog!: () => void;
    const backlogHeld = new Promise<void>((resolve) => (releaseBacklog = resolve));
    const lanes = [
      startQueuePoller({ sqs: client.stack.queues, queue: 'correlation-first', handler: worker }),
      startQueuePoller({
        sqs: client.stack.queues,
        queue: 'correlation',
        handler: async (event, context) => {
          await backlogHeld;
          return worker(event, context);
        },
      }),
    ];
    await lanes[0]!.idle();
    const opened = await getSignal(client, owner.auth, newProblem);
    const floodStart = await getSignal(client, owner.auth, flood[0]!);
    expect(opened.incidentId).toEqual(expect.any(String));
    expect(floodStart.incidentId).toEqual(expect.any(String));
    expect(floodStart.incidentId).not.toBe(opened.incidentId);
    expect((await getSignal(client, owner.auth, flood[1]!)).incidentId).toBeNull();

    releaseBacklog();
    await lanes[1]!.idle();
    await Promise.all(lanes.map((lane) => lane.stop()));
    for (const id of flood) expect((await getSignal(client, owner.auth, id)).incidentId).toBe(floodStart.incidentId);
  });
});
