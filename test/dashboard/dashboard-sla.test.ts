import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { sweepSlaDeadlines } from '#lib/incidents/sla-sweep.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INCIDENTS, at, dashboardData, incidentAt, resolveAt } from './support.ts';
import { HIGH_PAYMENTS_POLICY } from '../sla/support.ts';

const DAY = { from: '2026-02-02', to: '2026-02-02' };

describe('dashboard SLA compliance from the breaches incidents record', () => {
  let client: TestClient;
  let admin: SignedIn;

  const moveAt = (iso: string, id: string, status: string) =>
    at(client, iso, async () => {
      const reply = await client.request('PUT', `${INCIDENTS}/${id}`, { status }, admin.auth);
      expect(reply.status, reply.text).toBe(200);
    });

  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    const setup = await client.request(
      'POST',
      '/api/v1/ims/setup',
      { alertEmail: admin.email, timezone: 'UTC', slaEnabled: true },
      admin.auth,
    );
    expect(setup.status, setup.text).toBe(201);
    const policy = await client.request('POST', '/api/v1/sla-policies', HIGH_PAYMENTS_POLICY, admin.auth);
    expect(policy.status, policy.text).toBe(201);
  });
  afterAll(() => client.stack.stop());

  it('counts governed incidents with a breached target, on a transition and by the sweep', async () => {
    const governed = { priority: 'HIGH', serviceArea: 'payments' };
    const met = await incidentAt(client, admin, '2026-02-02T10:00:00Z', governed);
    await moveAt('2026-02-02T10:05:00Z', met, 'ACKNOWLEDGED');
    await resolveAt(client, admin, '2026-02-02T10:30:00Z', met);
    const lateAck = await incidentAt(client, admin, '2026-02-02T10:00:00Z', governed);
    await moveAt('2026-02-02T10:20:00Z', lateAck, 'ACKNOWLEDGED');
    await incidentAt(client, admin, '2026-02-02T10:00:00Z', { priority: 'LOW' });
    await incidentAt(client, admin, '2026-02-02T10:00:00Z', governed);

    expect(await dashboardData(client, admin.auth, 'metrics', DAY)).toMatchObject({
      totalIncidents: 4,
      slaBreaches: 1,
      slaComplianceRate: 66.67,
      slaGovernedIncidents: 3,
    });

    // Past both deadlines of the incident nobody touched: it breaches both targets, and counts once.
    await sweepSlaDeadlines(systemAccountScope(client.stack.ports), new Date('2026-02-02T12:00:00Z'));
    expect(await dashboardData(client, admin.auth, 'metrics', DAY)).toMatchObject({
      totalIncidents: 4,
      slaBreaches: 2,
      slaComplianceRate: 33.33,
    });
  });

  it('answers a compliance of 100 over no governed incident where no policy governs one, as the spec types it', async () => {
    const quiet = await signUpBusiness(client, { businessName: 'No SLA' });
    await incidentAt(client, quiet, '2026-02-02T10:00:00Z', { priority: 'HIGH', serviceArea: 'payments' });
    expect(await dashboardData(client, quiet.auth, 'metrics', DAY)).toMatchObject({
      totalIncidents: 1,
      slaBreaches: 0,
      slaComplianceRate: 100,
      slaGovernedIncidents: 0,
    });
  });
});
