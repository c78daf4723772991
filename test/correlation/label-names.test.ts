import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import { signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { RULES, createRule, getIncident, getSignal, postSignal, startCorrelationWorker } from './support.ts';

describe('label names every object inherits', () => {
  let client: TestClient;
  let worker: QueuePoller;
  beforeAll(async () => {
    client = await startTestStack();
    worker = startCorrelationWorker(client);
  });
  afterAll(async () => {
    await worker.stop();
    await client.stack.stop();
  });

  it('match and group only a label of that name: toString is a label like any other', async () => {
    const owner = await signUpBusiness(client);
    await createRule(client, owner.auth, {
      name: 'Labelled toString',
      order: 1,
      match: { labels: { toString: ['x'] } },
      groupBy: ['labels.toString'],
      action: { priority: 'CRITICAL' },
    });
    const unlabelled = await postSignal(client, owner.auth, { severity: 'HIGH', serviceId: 'cards' });
    const labelled = await postSignal(client, owner.auth, {
      severity: 'HIGH',
      serviceId: 'cards',
      metadata: { labels: { toString: 'x' } },
    });
    await worker.idle();

    const byDefault = (await getSignal(client, owner.auth, unlabelled)).incidentId;
    expect(await getIncident(client, owner.auth, byDefault)).toMatchObject({ priority: 'HIGH' });
    const byRule = (await getSignal(client, owner.auth, labelled)).incidentId;
    expect(await getIncident(client, owner.auth, byRule)).toMatchObject({ priority: 'CRITICAL' });
  });

  it('refuse a rule on a label named constructor with a 400, as the table could not store it', async () => {
    const owner = await signUpBusiness(client);
    const reply = await client.request(
      'POST',
      RULES,
      { name: 'c', match: { labels: { constructor: ['x'] } }, action: { priority: 'LOW' } },
      owner.auth,
    );
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual([
      "match.labels.constructor: must not be named constructor: the table reads that key as the object's type",
    ]);
  });
});
