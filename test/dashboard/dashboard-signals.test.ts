import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { rollUpIngestedHours } from '#lib/signals/ingested-rollup.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { getSignal, postSignal, startCorrelationWorker } from '../correlation/support.ts';
import { dashboardData } from './support.ts';

const secondsAgo = (seconds: number): string => new Date(Date.now() - seconds * 1000).toISOString();

describe('dashboard figures of signals', () => {
  let client: TestClient;
  let worker: QueuePoller;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    worker = startCorrelationWorker(client);
    admin = await signUpBusiness(client);
  });
  afterAll(async () => {
    await worker.stop();
    await client.stack.stop();
  });

  it('measures time to detect from the first signal to the incident correlation opened', async () => {
    const signalId = await postSignal(client, admin.auth, { severity: 'HIGH', triggeredAt: secondsAgo(120) });
    await worker.idle();
    expect((await getSignal(client, admin.auth, signalId)).incidentId).toBeDefined();
    const metrics = await dashboardData(client, admin.auth, 'metrics');
    expect(metrics).toMatchObject({ totalIncidents: 1, openIncidents: 1, highIncidents: 1, signalsIngested: 1 });
    expect(metrics.mttd).toBeGreaterThanOrEqual(120);
    expect(metrics.mttd).toBeLessThan(180);
    const analytics = await dashboardData(client, admin.auth, 'analytics');
    expect(analytics.sourceBreakdown).toEqual({ 'metrics-alerts': 1 });
  });

  it('counts signals once, before and after the sweep rolls their hour up', async () => {
    await postSignal(client, admin.auth, { severity: 'LOW' });
    await postSignal(client, admin.auth, { severity: 'LOW' });
    const before = await dashboardData(client, admin.auth, 'metrics');
    expect(before.signalsIngested).toBe(3);
    const workspaceId = admin.user.businessId as string;
    const nextHour = new Date(Date.now() + 3600_000);
    expect(await rollUpIngestedHours(systemScope(workspaceId, client.stack.ports), nextHour)).toBe(3);
    expect((await dashboardData(client, admin.auth, 'metrics')).signalsIngested).toBe(3);
    const elsewhere = await signUpBusiness(client, { businessName: 'Quiet Co' });
    expect((await dashboardData(client, elsewhere.auth, 'metrics')).signalsIngested).toBe(0);
  });
});
