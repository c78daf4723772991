import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { recountCounters } from '#lib/counters/recount-counters.ts';
import { systemClock } from '#lib/ports/clock.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { EXECUTIONS, PLAYBOOKS, playbookApi } from './helpers.ts';

const MINUTE = 60_000;

describe('playbook stats, patterns and suggestions', () => {
  let client: TestClient;
  let api: ReturnType<typeof playbookApi>;
  /** How far the service's clock runs ahead of the real one: executions that take minutes, at once. */
  let ahead = 0;

  beforeAll(async () => {
    client = await startTestStack();
    api = playbookApi(client);
    const now = systemClock.now.bind(systemClock);
    vi.spyOn(systemClock, 'now').mockImplementation(() => new Date(now().getTime() + ahead));
  });
  afterEach(() => {
    ahead = 0;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await client.stack.stop();
  });

  const stats = (as: SignedIn) => api.call('GET', `${PLAYBOOKS}/stats`, undefined, as);
  const patterns = (as: SignedIn) => api.call('GET', `${PLAYBOOKS}/patterns`, undefined, as);
  const suggestions = (as: SignedIn, executionId: string) =>
    api.call('GET', `${EXECUTIONS}/${executionId}/suggestions`, undefined, as);

  it('starts at zero', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Empty Co' });
    expect(await stats(admin)).toEqual({
      totalPlaybooks: 0,
      totalExecutions: 0,
      completedExecutions: 0,
      cancelledExecutions: 0,
      inProgressExecutions: 0,
      averageCompletionMinutes: 0,
      stepSkipRate: 0,
    });
    expect(await patterns(admin)).toMatchObject({
      frequentlySkippedSteps: [],
      recurringActions: [],
      usuallyCancelledPlaybooks: [],
    });
  });

  it('suggests the remaining steps, then what other executions did at this step, most frequent first', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Suggest Co' });
    const playbook = await api.createPublished(admin);
    const first = await api.execute(admin, playbook.id);
    await api.act(admin, first.executionId, 'Flush the cache');
    await api.act(admin, first.executionId, 'Scale up');
    const second = await api.execute(admin, playbook.id);
    await api.act(admin, second.executionId, 'flush  the cache!');
    const third = await api.execute(admin, playbook.id);
    await api.act(admin, third.executionId, 'Scale up');

    const suggested = await suggestions(admin, third.executionId);
    expect(suggested.map((entry: { type: string; stepIndex?: number }) => [entry.type, entry.stepIndex])).toEqual([
      ['STEP', 0],
      ['STEP', 1],
      ['STEP', 2],
      ['AD_HOC_ACTION', undefined],
      ['AD_HOC_ACTION', undefined],
    ]);
    expect(suggested.slice(3)).toEqual([
      { type: 'AD_HOC_ACTION', description: 'flush the cache', occurrences: 2 },
      { type: 'AD_HOC_ACTION', description: 'scale up', occurrences: 1 },
    ]);
    await api.complete(admin, third.executionId, 0);
    expect((await suggestions(admin, third.executionId)).map((entry: { title: string }) => entry.title)).toEqual([
      'Restart the workers',
      'Confirm recovery',
    ]);
    await api.cancel(admin, third.executionId);
    expect(await suggestions(admin, third.executionId)).toEqual([]);
  });

  it('forgets a deleted playbook: its executions leave the totals and the patterns', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Forget Co' });
    const playbook = await api.createPublished(admin);
    for (let index = 0; index < 2; index += 1) {
      const { executionId } = await api.execute(admin, playbook.id);
      await api.act(admin, executionId, 'Rolled back');
      await api.cancel(admin, executionId);
    }
    expect(await patterns(admin)).toMatchObject({
      usuallyCancelledPlaybooks: [expect.objectContaining({ playbookId: playbook.id })],
      recurringActions: [{ action: 'rolled back', executions: 2, playbookIds: [playbook.id] }],
    });
    await api.call('DELETE', `${PLAYBOOKS}/${playbook.id}`, undefined, admin);
    expect(await stats(admin)).toMatchObject({ totalPlaybooks: 0, totalExecutions: 0, cancelledExecutions: 0 });
    expect(await patterns(admin)).toMatchObject({ usuallyCancelledPlaybooks: [], recurringActions: [] });
  });

  it('done when: a person writes, publishes, matches, runs and changes a playbook, then reads stats and patterns', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Scenario Co' });
    const incident = await api.incident(admin, {
      summary: 'Primary database unreachable',
      priority: 'CRITICAL',
      serviceArea: 'storage',
    });

    const draft = await api.create(admin, {
      title: 'Database failover',
      triggerConditions: { serviceArea: 'storage', priority: ['HIGH', 'CRITICAL'], keywords: 'database' },
    });
    expect(await api.call('POST', `${PLAYBOOKS}/match`, { incidentId: incident.id }, admin)).toBeNull();
    await api.publish(admin, draft.id);
    const match = await api.call('POST', `${PLAYBOOKS}/match`, { incidentId: incident.id }, admin);
    expect(match).toEqual({ playbookId: draft.id, title: 'Database failover', matchScore: 0.9 });

    // Two runs of the matched playbook: each skips the optional restart and records the same extra action.
    const running = await api.execute(admin, match.playbookId, { incidentId: incident.id });
    const other = await api.execute(admin, match.playbookId);
    await api.complete(admin, running.executionId, 0, { note: 'Replica lag 0' });
    await api.act(admin, running.executionId, 'Told support about the outage');

    const changed = await api.call('PUT', `${PLAYBOOKS}/${draft.id}`, { steps: [{ title: 'Call the vendor' }] }, admin);
    expect(changed).toMatchObject({ status: 'DRAFT', version: 2, publishedVersion: 1 });
    const stillV1 = await api.skip(admin, running.executionId, 1, { reason: 'Not needed' });
    expect(stillV1).toMatchObject({ playbookVersion: 1, currentStepIndex: 2 });
    expect(stillV1.steps.map((step: { title: string }) => step.title)).toEqual([
      'Check the dashboards',
      'Restart the workers',
      'Confirm recovery',
    ]);
    ahead = 6 * MINUTE;
    const finished = await api.complete(admin, running.executionId, 2);
    expect(finished.status).toBe('COMPLETED');

    await api.complete(admin, other.executionId, 0);
    await api.act(admin, other.executionId, 'told support about the outage.');
    await api.skip(admin, other.executionId, 1);
    ahead = 10 * MINUTE;
    await api.complete(admin, other.executionId, 2);

    // A second playbook whose runs get cancelled.
    const noisy = await api.createPublished(admin, { title: 'Noisy alert triage' });
    for (const reason of ['False alarm', 'Duplicate']) {
      const { executionId } = await api.execute(admin, noisy.id);
      await api.cancel(admin, executionId, reason);
    }

    const minutes = await Promise.all(
      [running, other].map(async ({ executionId }) => {
        const run = await api.call('GET', `${EXECUTIONS}/${executionId}`, undefined, admin);
        return (Date.parse(run.completedAt) - Date.parse(run.startedAt)) / MINUTE;
      }),
    );
    const read = await stats(admin);
    expect(read).toEqual({
      totalPlaybooks: 2,
      totalExecutions: 4,
      completedExecutions: 2,
      cancelledExecutions: 2,
      inProgressExecutions: 0,
      averageCompletionMinutes: Math.round((minutes.reduce((sum, value) => sum + value, 0) / 2) * 100) / 100,
      stepSkipRate: 0.333,
    });
    expect(read.averageCompletionMinutes).toBeGreaterThanOrEqual(8);
    expect(await patterns(admin)).toEqual({
      frequentlySkippedSteps: [
        {
          playbookId: draft.id,
          playbookTitle: 'Database failover',
          step: 'restart the workers',
          skipped: 2,
          reached: 2,
          skipRate: 1,
        },
      ],
      recurringActions: [{ action: 'told support about the outage', executions: 2, playbookIds: [draft.id] }],
      usuallyCancelledPlaybooks: [
        { playbookId: noisy.id, playbookTitle: 'Noisy alert triage', endedExecutions: 2, cancelled: 2, cancelRate: 1 },
      ],
      thresholds: { minOccurrences: 2, minSkipRate: 0.5, cancelRateAbove: 0.5 },
    });
    const history = await api.call('GET', `/api/v1/tickets/history?ticketId=${incident.id}`, undefined, admin);
    expect(history.map((event: { event: string }) => event.event)).toContain('PLAYBOOK_STARTED');

    // Counters that drifted (a crash between an item's write and its counter's) are put right by the recount.
    const before = { stats: await stats(admin), patterns: await patterns(admin) };
    const workspaceId = admin.user.businessId ?? '';
    const { table } = client.stack.ports;
    await addToCounters(table, { pk: `WS#${workspaceId}#COUNTER`, sk: 'EXECUTIONS' }, { total: 5, stepsSkipped: -1 });
    await addToCounters(
      table,
      { pk: `WS#${workspaceId}#COUNTER`, sk: `PLAYBOOK#${noisy.id}` },
      { 'status#CANCELLED': -2 },
    );
    const action = encodeURIComponent('told support about the outage');
    await addToCounters(
      table,
      { pk: `WS#${workspaceId}#PLAYBOOK#${draft.id}`, sk: `ACTION#${action}` },
      { executions: 3 },
    );
    expect(await stats(admin)).not.toEqual(before.stats);
    await recountCounters(systemAccountScope(client.stack.ports));
    expect({ stats: await stats(admin), patterns: await patterns(admin) }).toEqual(before);
  });
});
