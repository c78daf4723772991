import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPorts } from '#lib/ports/port-set.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

const T0 = Date.parse('2025-03-10T09:00:00.000Z');
const minutes = (n: number): Date => new Date(T0 + n * 60_000);

const ZERO_STATUSES = { OPEN: 0, ACKNOWLEDGED: 0, INVESTIGATION: 0, MITIGATED: 0, RESOLVED: 0, CLOSED: 0 };
const ZERO_PRIORITIES = { LOW: 0, MEDIUM: 0, HIGH: 0, CRITICAL: 0 };

describe('incident analytics', () => {
  let client: TestClient;
  let admin: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
  });
  afterAll(() => {
    installPorts(client.stack.ports);
    return client.stack.stop();
  });

  /** Runs `act` with the service's clock stopped at `at`. */
  const at = async <T>(instant: Date, act: () => Promise<T>): Promise<T> => {
    installPorts({ ...client.stack.ports, clock: { now: () => instant } });
    try {
      return await act();
    } finally {
      installPorts(client.stack.ports);
    }
  };
  const analytics = async () => {
    const reply = await client.request('GET', `${INCIDENTS}/analytics`, undefined, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };
  const put = (id: string, body: unknown) => client.request('PUT', `${INCIDENTS}/${id}`, body, admin.auth);

  it('reports zeros and no means before the first incident', async () => {
    expect(await analytics()).toEqual({
      total: 0,
      byStatus: ZERO_STATUSES,
      byPriority: ZERO_PRIORITIES,
      meanTimeToAcknowledge: null,
      meanTimeToResolve: null,
    });
  });

  it('counts by status and priority and averages the real times to acknowledge and resolve', async () => {
    const first = await at(minutes(0), () => createIncident(client, admin.auth, { priority: 'HIGH' }));
    const second = await at(minutes(0), () => createIncident(client, admin.auth, { priority: 'CRITICAL' }));
    const third = await at(minutes(5), () => createIncident(client, admin.auth, { priority: 'LOW', status: 'CLOSED' }));
    await at(minutes(10), () => put(first.id, { status: 'ACKNOWLEDGED' }));
    await at(minutes(20), () => put(second.id, { status: 'INVESTIGATION' }));
    await at(minutes(25), () => put(first.id, { status: 'MITIGATED' }));
    await at(minutes(30), () => client.request('POST', `${INCIDENTS}/resolve/${first.id}`, undefined, admin.auth));

    // Acknowledged after 10, 20 and 0 minutes; resolved after 30 and 0 minutes.
    expect(await analytics()).toEqual({
      total: 3,
      byStatus: { ...ZERO_STATUSES, INVESTIGATION: 1, RESOLVED: 1, CLOSED: 1 },
      byPriority: { ...ZERO_PRIORITIES, LOW: 1, HIGH: 1, CRITICAL: 1 },
      meanTimeToAcknowledge: 10,
      meanTimeToResolve: 15,
    });

    await at(minutes(40), () => put(first.id, { status: 'INVESTIGATION', priority: 'CRITICAL' }));
    await at(minutes(41), () => client.request('DELETE', `${INCIDENTS}/${third.id}`, undefined, admin.auth));
    expect(await analytics()).toEqual({
      total: 2,
      byStatus: { ...ZERO_STATUSES, INVESTIGATION: 2 },
      byPriority: { ...ZERO_PRIORITIES, CRITICAL: 2 },
      meanTimeToAcknowledge: 15,
      meanTimeToResolve: null,
    });

    await at(new Date(T0 + 20 * 60_000 + 20_000), () => put(second.id, { status: 'RESOLVED' }));
    const after = await analytics();
    expect(after.meanTimeToResolve).toBe(20.33);
    expect(after.byStatus).toEqual({ ...ZERO_STATUSES, INVESTIGATION: 1, RESOLVED: 1 });
  });

  it('changes nothing for an update that changes nothing', async () => {
    const before = await analytics();
    const incident = await createIncident(client, admin.auth, { priority: 'MEDIUM' });
    await put(incident.id, { priority: 'MEDIUM', status: 'OPEN' });
    const after = await analytics();
    expect(after.total).toBe(before.total + 1);
    expect(after.byPriority.MEDIUM).toBe(before.byPriority.MEDIUM + 1);
    expect(after.meanTimeToAcknowledge).toBe(before.meanTimeToAcknowledge);
  });
});
