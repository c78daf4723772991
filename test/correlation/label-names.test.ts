import { describe, expect, it } from 'vitest';
import { signUpBusiness } from '../support/accounts.ts';
import { RULES, createRule, getIncident, getSignal, postSignal, useCorrelatingStack } from './support.ts';

describe('label names every object inherits', () => {
  const stack = useCorrelatingStack();

  it('match and group only a label of that name: toString is a label like any other', async () => {
    const owner = await signUpBusiness(stack.client);
    await createRule(stack.client, owner.auth, {
      name: 'Labelled toString',
      order: 1,
      match: { labels: { toString: ['x'] } },
      groupBy: ['labels.toString'],
      action: { priority: 'CRITICAL' },
    });
    const unlabelled = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'cards' });
    const labelled = await postSignal(stack.client, owner.auth, {
      severity: 'HIGH',
      serviceId: 'cards',
      metadata: { labels: { toString: 'x' } },
    });
    await stack.worker.idle();

    const byDefault = (await getSignal(stack.client, owner.auth, unlabelled)).incidentId;
    expect(await getIncident(stack.client, owner.auth, byDefault)).toMatchObject({ priority: 'HIGH' });
    const byRule = (await getSignal(stack.client, owner.auth, labelled)).incidentId;
    expect(await getIncident(stack.client, owner.auth, byRule)).toMatchObject({ priority: 'CRITICAL' });
  });

  it('refuse a rule on a label named constructor with a 400, as the table could not store it', async () => {
    const owner = await signUpBusiness(stack.client);
    const reply = await stack.client.request(
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
