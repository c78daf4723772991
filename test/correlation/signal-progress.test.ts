import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, createRule, getSignal, postSignal, startCorrelationWorker, unique } from './support.ts';

describe('the correlation progress of a signal', () => {
  let client: TestClient;
  let worker: QueuePoller;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    worker = startCorrelationWorker(client);
    admin = await signUpBusiness(client, { businessName: unique('Progress Co') });
  });
  afterAll(async () => {
    await worker.stop();
    await client.stack.stop();
  });
  const settle = (): Promise<void> => worker.idle();

  it('shows "n of minSignals" as signals of the group arrive, then the incident they opened', async () => {
    const posted = [];
    for (const expected of [1, 2]) {
      posted.push(await postSignal(client, admin.auth, { severity: 'MEDIUM', serviceId: 'search' }));
      await settle();
      expect((await getSignal(client, admin.auth, posted[0] ?? '')).correlation).toEqual({
        ruleId: 'default-medium',
        ruleName: 'Repeated medium severity on one service',
        groupKey: 'serviceId=search',
        signalsInWindow: expected,
        minSignals: 3,
        windowMinutes: 10,
        incidentId: null,
      });
    }
    const third = await postSignal(client, admin.auth, { severity: 'MEDIUM', serviceId: 'search' });
    await settle();
    const signal = await getSignal(client, admin.auth, third);
    expect(signal.incidentId).toMatch(/^INC-/);
    expect(signal.correlation).toMatchObject({ signalsInWindow: 3, minSignals: 3, incidentId: signal.incidentId });
  });

  it('counts a signal not correlated yet with its group, and follows a changed rule', async () => {
    const owner = await signUpBusiness(client, { businessName: unique('Rules Co') });
    const rule = await createRule(client, owner.auth, {
      name: 'Any two in five',
      order: 1,
      groupBy: ['source'],
      windowMinutes: 5,
      minSignals: 2,
      action: { priority: 'LOW' },
    });
    const id = await postSignal(client, owner.auth, { severity: 'LOW', source: 'probe' });
    expect((await getSignal(client, owner.auth, id)).correlation).toEqual({
      ruleId: rule.id,
      ruleName: 'Any two in five',
      groupKey: 'source=probe',
      signalsInWindow: 1,
      minSignals: 2,
      windowMinutes: 5,
      incidentId: null,
    });
    await settle();
    const raised = await client.request('PUT', `/api/v1/correlation-rules/${rule.id}`, { minSignals: 4 }, owner.auth);
    expect(raised.status, raised.text).toBe(200);
    expect((await getSignal(client, owner.auth, id)).correlation).toMatchObject({ signalsInWindow: 1, minSignals: 4 });
  });

  it('is null when no rule takes the signal, and the list items carry no progress', async () => {
    const id = await postSignal(client, admin.auth, { severity: 'LOW', serviceId: 'search' });
    expect((await getSignal(client, admin.auth, id)).correlation).toBeNull();
    const list = await client.request('GET', `${SIGNALS}?limit=5`, undefined, admin.auth);
    expect(list.body.data[0]).not.toHaveProperty('correlation');
  });

  it('is answered to every role and to an incidents:read key, and another workspace gets 404', async () => {
    const id = await postSignal(client, admin.auth, { severity: 'HIGH', serviceId: 'cart' });
    await settle();
    const viewer = await joinAs(client, admin, 'VIEWER');
    expect((await getSignal(client, viewer.auth, id)).correlation).toMatchObject({ ruleId: 'default-high' });
    const key = await apiKeyHeaders(client, admin, ['incidents:read']);
    expect((await getSignal(client, key, id)).correlation).toMatchObject({ signalsInWindow: 1, minSignals: 1 });
    const noScope = await apiKeyHeaders(client, admin, ['analytics:read']);
    expect((await client.request('GET', `${SIGNALS}/${id}`, undefined, noScope)).status).toBe(403);
    const other = await signUpBusiness(client, { businessName: unique('Elsewhere Co') });
    expect((await client.request('GET', `${SIGNALS}/${id}`, undefined, other.auth)).status).toBe(404);
  });
});
