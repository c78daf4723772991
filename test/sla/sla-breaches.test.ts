import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { sweepSlaDeadlines } from '#lib/incidents/sla-sweep.ts';
import type { Clock } from '#lib/ports/clock.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createIncident as createIncidentAs } from '../support/incidents.ts';
import { HIGH_PAYMENTS_POLICY } from './support.ts';

const POLICIES = '/api/v1/sla-policies';
const INCIDENTS = '/api/v1/incident-ticket';
const MINUTE = 60_000;

describe('SLA breaches recorded on incidents', () => {
  let client: TestClient;
  let admin: SignedIn;
  let disabled: SignedIn;
  let payments: Record<string, any>;
  let everyTeam: Record<string, any>;

  /** Requests from now on see the clock moved by `ms`; afterEach puts the real one back. */
  const shiftClock = (ms: number) => {
    const clock: Clock = { now: () => new Date(Date.now() + ms) };
    installPorts({ ...client.stack.ports, clock });
  };
  const createPolicy = async (body: Record<string, unknown>, as: SignedIn = admin) => {
    const reply = await client.request('POST', POLICIES, { ...HIGH_PAYMENTS_POLICY, ...body }, as.auth);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  };
  const policy = async (id: string) =>
    (await client.request('GET', `${POLICIES}/${id}`, undefined, admin.auth)).body.data;
  const createIncident = (body: Record<string, unknown>) => createIncidentAs(client, admin.auth, body);
  const incident = async (id: string) =>
    (await client.request('GET', `${INCIDENTS}/${id}`, undefined, admin.auth)).body.data;
  const move = async (id: string, status: string) => {
    const reply = await client.request('PUT', `${INCIDENTS}/${id}`, { status }, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, disabled] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'No SLA' })]);
    const setup = await client.request(
      'POST',
      '/api/v1/ims/setup',
      { alertEmail: admin.email, timezone: 'Europe/Berlin', slaEnabled: true },
      admin.auth,
    );
    expect(setup.status, setup.text).toBe(201);
    payments = await createPolicy({});
    everyTeam = await createPolicy({
      name: 'High, any team',
      applicableTeam: '*',
      responseTimeMinutes: 5,
      resolveTimeMinutes: 30,
    });
  });
  afterEach(() => installPorts(client.stack.ports));
  afterAll(() => client.stack.stop());

  it('gives a new incident the deadlines of the policy of its priority and team, shown on GET', async () => {
    const created = await createIncident({ serviceArea: ' Payments ' });
    const shown = await incident(created.id);
    expect(shown).toMatchObject({
      slaPolicyId: payments.id,
      slaResponse: 'PENDING',
      slaResolve: 'PENDING',
      slaResponseDueAt: new Date(Date.parse(created.createdAt) + 10 * MINUTE).toISOString(),
      slaResolveDueAt: new Date(Date.parse(created.createdAt) + 60 * MINUTE).toISOString(),
    });
    expect((await incident((await createIncident({ serviceArea: 'search' })).id)).slaPolicyId).toBe(everyTeam.id);
    expect((await incident((await createIncident({})).id)).slaPolicyId).toBe(everyTeam.id);
    const low = await incident((await createIncident({ priority: 'LOW', serviceArea: 'payments' })).id);
    expect(low).not.toHaveProperty('slaPolicyId');
  });

  it('records both targets met when acknowledged and resolved in time', async () => {
    const { id } = await createIncident({ serviceArea: 'payments' });
    expect(await move(id, 'INVESTIGATION')).toMatchObject({ status: 'INVESTIGATION' });
    expect((await incident(id)).slaResponse).toBe('MET');
    const resolved = await client.request('POST', `${INCIDENTS}/resolve/${id}`, undefined, admin.auth);
    expect(resolved.status).toBe(200);
    expect(await incident(id)).toMatchObject({ slaResponse: 'MET', slaResolve: 'MET' });
    const created = await createIncident({ serviceArea: 'payments', status: 'RESOLVED' });
    expect(await incident(created.id)).toMatchObject({ slaResponse: 'MET', slaResolve: 'MET' });
  });

  it('records a late acknowledgement as a response breach, active on the policy until resolution', async () => {
    const before = await policy(payments.id);
    const { id } = await createIncident({ serviceArea: 'payments' });
    shiftClock(11 * MINUTE);
    await move(id, 'ACKNOWLEDGED');
    expect(await incident(id)).toMatchObject({ slaResponse: 'BREACHED', slaResolve: 'PENDING' });
    const breached = await policy(payments.id);
    expect(breached.breachStatus).toBe('RESPONSE_BREACH');
    expect(breached.compliance.response.breached).toBe(before.compliance.response.breached + 1);
    // Two met before (one created RESOLVED), one breached: 66.67 % against a threshold of 90.
    expect(breached.compliance.response).toMatchObject({ metPercent: 66.67, threshold: 90, holds: false });

    await move(id, 'RESOLVED');
    expect(await incident(id)).toMatchObject({ slaResponse: 'BREACHED', slaResolve: 'MET' });
    expect((await policy(payments.id)).breachStatus).toBe('NONE');
    // Reopening and acknowledging again decides nothing twice.
    await move(id, 'OPEN');
    expect((await policy(payments.id)).breachStatus).toBe('RESPONSE_BREACH');
    await move(id, 'CLOSED');
    expect((await policy(payments.id)).compliance.response.breached).toBe(before.compliance.response.breached + 1);
  });

  it('finds passed deadlines with the sweep, once, and records them on the incident and the policy', async () => {
    const { id } = await createIncident({ serviceArea: 'search' });
    const early = await sweepSlaDeadlines(systemAccountScope(client.stack.ports), new Date(Date.now() + 4 * MINUTE));
    expect(early.recorded).toBe(0);
    expect((await incident(id)).slaResponse).toBe('PENDING');

    const late = await sweepSlaDeadlines(systemAccountScope(client.stack.ports), new Date(Date.now() + 31 * MINUTE));
    expect(late.recorded).toBeGreaterThanOrEqual(2);
    expect(await incident(id)).toMatchObject({ slaResponse: 'BREACHED', slaResolve: 'BREACHED' });
    expect((await policy(everyTeam.id)).breachStatus).toBe('BOTH');
    const again = await sweepSlaDeadlines(systemAccountScope(client.stack.ports), new Date(Date.now() + 31 * MINUTE));
    expect(again).toMatchObject({ deadlines: 0, recorded: 0 });
  });

  it('moves an incident to the policy of its new priority or team, decided again against its targets', async () => {
    const { id } = await createIncident({ priority: 'MEDIUM', serviceArea: 'payments' });
    expect(await incident(id)).not.toHaveProperty('slaPolicyId');
    await client.request('PUT', `${INCIDENTS}/${id}`, { priority: 'HIGH' }, admin.auth);
    expect(await incident(id)).toMatchObject({ slaPolicyId: payments.id, slaResponse: 'PENDING' });

    shiftClock(7 * MINUTE);
    await client.request('PUT', `${INCIDENTS}/${id}`, { serviceArea: 'search' }, admin.auth);
    // The any-team policy wants a response within 5 minutes, and 7 have passed.
    expect(await incident(id)).toMatchObject({
      slaPolicyId: everyTeam.id,
      slaResponse: 'BREACHED',
      slaResolve: 'PENDING',
    });
    await client.request('PUT', `${INCIDENTS}/${id}`, { priority: 'LOW' }, admin.auth);
    expect(await incident(id)).toMatchObject({ slaPolicyId: everyTeam.id, slaResponse: 'BREACHED' });
  });

  it('lets incidents keep the outcomes they recorded when their policy is deleted', async () => {
    const doomed = await createPolicy({ priority: 'CRITICAL', applicableTeam: '*' });
    const { id } = await createIncident({ priority: 'CRITICAL' });
    await sweepSlaDeadlines(systemAccountScope(client.stack.ports), new Date(Date.now() + 11 * MINUTE));
    expect((await client.request('DELETE', `${POLICIES}/${doomed.id}`, undefined, admin.auth)).status).toBe(200);
    await move(id, 'RESOLVED');
    expect(await incident(id)).toMatchObject({ slaPolicyId: doomed.id, slaResponse: 'BREACHED', slaResolve: 'MET' });
    expect((await client.request('GET', `${POLICIES}/${doomed.id}`, undefined, admin.auth)).status).toBe(404);
  });

  it('evaluates nothing in a workspace whose IMS configuration does not enable SLAs', async () => {
    await createPolicy({ applicableTeam: '*' }, disabled);
    const reply = await client.request('POST', INCIDENTS, { summary: 'Down', priority: 'HIGH' }, disabled.auth);
    expect(reply.body.data).not.toHaveProperty('slaPolicyId');
    const sweep = await sweepSlaDeadlines(
      systemAccountScope(client.stack.ports),
      new Date(Date.now() + 24 * 60 * MINUTE),
    );
    expect(sweep.workspaces).toBe(1);
  });
});
