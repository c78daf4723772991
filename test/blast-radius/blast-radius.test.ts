import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuePoller } from '#infra/local/queue-poller.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { startCorrelationWorker } from '../correlation/support.ts';
import { createTenant, type Tenant } from '../ingestion-routes/support.ts';
import {
  BLAST,
  type Report,
  byName,
  calculate,
  createService,
  dependOn,
  expectScore,
  expectedScore,
  postAlertmanagerAlert,
  postWorkflowRun,
} from './support.ts';

const UNKNOWN_ID = '01J0000000000000000000000Z';

describe('blast radius', () => {
  let client: TestClient;
  let worker: QueuePoller;
  let tenant: Tenant;
  let admin: SignedIn;
  let other: SignedIn;
  const services: Record<string, { id: string; name: string }> = {};
  let signalId: string;
  let incidentId: string;

  beforeAll(async () => {
    client = await startTestStack();
    worker = startCorrelationWorker(client);
    tenant = await createTenant(client, 'Blast Co');
    admin = tenant.admin;
    other = await signUpBusiness(client, { businessName: 'Elsewhere' });
    // api <- web <- mobile: web depends on api, mobile on web. The alert's label names `api` in lower case.
    for (const name of ['API', 'web', 'mobile', 'ledger'])
      services[name] = await createService(client, admin, { name });
    await dependOn(client, admin, services.web?.id ?? '', services.API?.id ?? '');
    await dependOn(client, admin, services.mobile?.id ?? '', services.web?.id ?? '');
    signalId = await postAlertmanagerAlert(client, tenant.keyHeaders);
    await worker.idle();
    const signal = await client.request('GET', `/api/v1/signals/${signalId}`, undefined, admin.auth);
    incidentId = signal.body.data.incidentId;
    expect(incidentId).toMatch(/^INC-/);
  });
  afterAll(async () => {
    await worker.stop();
    await client.stack.stop();
  });

  describe('POST /calculate', () => {
    it('links the alert and its incident to the service they name, and scores the service and its dependents', async () => {
      const report = await calculate(client, admin.auth, { serviceId: services.API?.id });
      expect(report).toMatchObject({
        reportId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        triggerId: null,
        triggerType: null,
        serviceId: services.API?.id,
        environment: null,
        depth: 3,
      });
      const affected = byName(report);
      expect(report.affectedServices.map(({ name, depth }) => [name, depth])).toEqual([
        ['API', 0],
        ['web', 1],
        ['mobile', 2],
      ]);
      expect(affected.API).toMatchObject({ openSignals: 1, openIncidents: 1, dependents: 1, failedPipelineRuns: 0 });
      expect(affected.web).toMatchObject({ openSignals: 0, openIncidents: 0, dependents: 1 });
      // A HIGH signal (0.5) and the HIGH incident correlation opened from it (0.7).
      expectScore(
        affected.API?.riskScore ?? -1,
        expectedScore({ depth: 0, maxDepth: 3, dependents: 1, trouble: [0.5, 0.7] }),
      );
      expectScore(affected.web?.riskScore ?? -1, expectedScore({ depth: 1, maxDepth: 3, dependents: 1, trouble: [] }));
      expectScore(
        affected.mobile?.riskScore ?? -1,
        expectedScore({ depth: 2, maxDepth: 3, dependents: 0, trouble: [] }),
      );
      expectScore(report.overallRiskScore, Math.min(1, (affected.API?.riskScore ?? 0) + 0.1));
      expect(report.estimatedUserImpact).toMatch(/^High impact: users of API, web and mobile are likely to see errors/);
      expect(report.estimatedUserImpact).toContain('over 3 services (API and 2 dependents, 1 of them direct)');
      expect(report.estimatedUserImpact).toContain('1 open incident, 1 open signal, 0 failed pipeline runs');
      const stored = await client.request('GET', `${BLAST}/${report.reportId}`, undefined, admin.auth);
      expect(stored.status).toBe(200);
      expect(stored.body.data).toEqual(report);
    });

    it('follows at most `depth` hops', async () => {
      const report = await calculate(client, admin.auth, { serviceId: services.API?.id, depth: 1 });
      expect(report.affectedServices.map(({ name }) => name)).toEqual(['API', 'web']);
      expectScore(
        byName(report).web?.riskScore ?? -1,
        expectedScore({ depth: 1, maxDepth: 1, dependents: 1, trouble: [] }),
      );
    });

    it('starts from the service a signal or an incident names, and lists the reports by trigger', async () => {
      const bySignal = await calculate(client, admin.auth, { triggerId: signalId });
      expect(bySignal).toMatchObject({ triggerId: signalId, triggerType: 'SIGNAL', serviceId: services.API?.id });
      const byIncident = await calculate(client, admin.auth, { triggerId: incidentId, environment: 'production' });
      expect(byIncident).toMatchObject({
        triggerId: incidentId,
        triggerType: 'INCIDENT',
        serviceId: services.API?.id,
        environment: 'production',
      });
      const listed = await client.request('GET', `${BLAST}/trigger/${signalId}`, undefined, admin.auth);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((report: Report) => report.reportId)).toEqual([bySignal.reportId]);
      const none = await client.request('GET', `${BLAST}/trigger/${signalId}`, undefined, other.auth);
      expect(none.body.data).toEqual([]);
    });

    it('counts an incident of another environment out, and one of the same or of none in', async () => {
      const incident = await client.request(
        'POST',
        '/api/v1/incident-ticket',
        { summary: 'Ledger drift', priority: 'CRITICAL', serviceArea: 'billing, Ledger', environment: 'Staging' },
        admin.auth,
      );
      expect(incident.status).toBe(201);
      const ledger = services.ledger?.id;
      const count = async (environment?: string) =>
        byName(await calculate(client, admin.auth, { serviceId: ledger, ...(environment && { environment }) })).ledger
          ?.openIncidents;
      expect(await count()).toBe(1);
      expect(await count('staging')).toBe(1);
      expect(await count('production')).toBe(0);
    });

    it('refuses both or neither of triggerId and serviceId, and a bad depth, naming the field', async () => {
      const both = await client.request(
        'POST',
        `${BLAST}/calculate`,
        { triggerId: signalId, serviceId: services.API?.id },
        admin.auth,
      );
      expect(both.status).toBe(400);
      expect(both.body.errors).toEqual(['serviceId: give either triggerId or serviceId, not both']);
      const neither = await client.request('POST', `${BLAST}/calculate`, { environment: 'prod' }, admin.auth);
      expect(neither.status).toBe(400);
      expect(neither.body.errors).toEqual(['triggerId: give triggerId (a signal or incident id) or serviceId']);
      for (const depth of [0, 11, 2.5, '3']) {
        const reply = await client.request(
          'POST',
          `${BLAST}/calculate`,
          { serviceId: services.API?.id, depth },
          admin.auth,
        );
        expect(reply.status).toBe(400);
        expect(reply.body.errors.map((error: string) => error.split(':')[0])).toEqual(['depth']);
      }
    });

    it("answers 404 for unknown ids and other workspaces' services and triggers, 400 for a trigger naming no service", async () => {
      const theirs = await createService(client, other, { name: 'API' });
      for (const body of [
        { serviceId: UNKNOWN_ID },
        { serviceId: theirs.id },
        { triggerId: UNKNOWN_ID },
        { triggerId: 'INC-20200101-0001' },
        { triggerId: 'nonsense' },
      ]) {
        const reply = await client.request('POST', `${BLAST}/calculate`, body, admin.auth);
        expect(reply.status, JSON.stringify(body)).toBe(404);
      }
      const foreign = await client.request('POST', `${BLAST}/calculate`, { triggerId: signalId }, other.auth);
      expect(foreign.status).toBe(404);
      const orphan = await client.request(
        'POST',
        '/api/v1/signals',
        { name: 'Disk full', source: 'monitoring', severity: 'LOW', serviceId: 'no-such-service' },
        admin.auth,
      );
      const reply = await client.request('POST', `${BLAST}/calculate`, { triggerId: orphan.body.data.id }, admin.auth);
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([
        `triggerId: signal ${orphan.body.data.id} names no service of the service map, by id or by name`,
      ]);
    });
  });

  it("counts failed pipeline runs of the last 24 hours of a service's repository", async () => {
    const owner = await createTenant(client, 'Pipeline Co');
    const payments = await createService(client, owner.admin, { name: 'payments' });
    const billing = await createService(client, owner.admin, { name: 'billing', repository: 'Acme/Payments' });
    await dependOn(client, owner.admin, billing.id, payments.id);
    await postWorkflowRun(client, owner.keyHeaders, {
      id: 7001,
      repository: 'acme/payments',
      conclusion: 'failure',
      hoursAgo: 1,
    });
    await postWorkflowRun(client, owner.keyHeaders, {
      id: 7002,
      repository: 'acme/payments',
      conclusion: 'failure',
      hoursAgo: 30,
    });
    await postWorkflowRun(client, owner.keyHeaders, {
      id: 7003,
      repository: 'acme/payments',
      conclusion: 'success',
      hoursAgo: 1,
    });
    await postWorkflowRun(client, owner.keyHeaders, {
      id: 7004,
      repository: 'acme/billing',
      conclusion: 'failure',
      hoursAgo: 1,
    });
    const affected = byName(await calculate(client, owner.admin.auth, { serviceId: payments.id }));
    expect(affected.payments?.failedPipelineRuns).toBe(1);
    expect(affected.billing?.failedPipelineRuns).toBe(1);
  });
});
