import { systemScope } from '#lib/identity/scope.ts';
import { describe, expect, it } from 'vitest';
import { listIncidentSignals, releaseIncidentSignals } from '#lib/incidents/incident-signals.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import {
  INCIDENTS,
  SIGNALS,
  capturingQueue,
  createRule,
  getIncident,
  getSignal,
  historyOf,
  listIncidents,
  postSignal,
  unique,
  withRuntime,
  useCorrelatingStack,
} from './support.ts';

const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

describe('correlation of signals into incidents', () => {
  const stack = useCorrelatingStack();

  /** A workspace of its own per test, so its incidents are only the test's. */
  const workspace = (): Promise<SignedIn> => signUpBusiness(stack.client, { businessName: unique('Correlating Co') });
  const settle = (): Promise<void> => stack.worker.idle();
  const workspaceId = (owner: SignedIn): string => owner.user.businessId ?? '';

  it('opens a HIGH incident from one HIGH signal, filled from the signal and linked both ways', async () => {
    const owner = await workspace();
    const signalId = await postSignal(stack.client, owner.auth, {
      name: 'Checkout error rate above 5%',
      severity: 'HIGH',
      serviceId: 'checkout',
      metadata: { environment: 'production', summary: 'Errors on POST /pay' },
      triggeredAt: minutesAgo(1),
    });
    await settle();

    const signal = await getSignal(stack.client, owner.auth, signalId);
    expect(signal.incidentId).toMatch(/^INC-\d{8}-\d{4}$/);
    const incident = await getIncident(stack.client, owner.auth, signal.incidentId);
    expect(incident).toMatchObject({
      summary: 'Errors on POST /pay on checkout',
      priority: 'HIGH',
      status: 'OPEN',
      source: 'metrics-alerts',
      serviceArea: 'checkout',
      environment: 'production',
      createdBy: 'system',
      firstSignalAt: signal.triggeredAt,
    });
    expect(incident.description).toContain('Checkout error rate above 5%');
    expect(incident.description).toContain('Errors on POST /pay');
    expect(incident.techDescription).toContain('default-high');

    expect(
      (await historyOf(stack.client, owner.auth, incident.id)).map(({ event, actor, to }) => ({ event, actor, to })),
    ).toEqual([
      { event: 'CREATED', actor: 'system', to: 'OPEN' },
      { event: 'SIGNAL_LINKED', actor: 'system', to: signalId },
    ]);
    const linked = await listIncidentSignals(systemScope(workspaceId(owner), stack.client.stack.ports), incident.id);
    expect(linked).toEqual([
      expect.objectContaining({
        id: signalId,
        incidentId: incident.id,
        ruleId: 'default-high',
        linkedAt: expect.any(String),
      }),
    ]);
    await expect(
      listIncidentSignals(systemScope(workspaceId(owner), stack.client.stack.ports), 'INC-20200101-0001'),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it('joins a second matching signal to the open incident of its group, and opens another for another service', async () => {
    const owner = await workspace();
    const first = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'search' });
    await settle();
    const second = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'search' });
    const elsewhere = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'billing' });
    await settle();

    const incidentId = (await getSignal(stack.client, owner.auth, first)).incidentId;
    expect((await getSignal(stack.client, owner.auth, second)).incidentId).toBe(incidentId);
    const other = (await getSignal(stack.client, owner.auth, elsewhere)).incidentId;
    expect(other).toMatch(/^INC-/);
    expect(other).not.toBe(incidentId);
    expect(await listIncidents(stack.client, owner.auth)).toHaveLength(2);
    const linked = await stack.client.request(
      'GET',
      `/api/v1/incident-ticket/${incidentId}/signals`,
      undefined,
      owner.auth,
    );
    expect(linked.status).toBe(200);
    expect(linked.body.data.map(({ id }: { id: string }) => id)).toEqual([first, second]);
    const events = (await historyOf(stack.client, owner.auth, incidentId)).filter(
      ({ event }) => event === 'SIGNAL_LINKED',
    );
    expect(events.map(({ to }) => to)).toEqual([first, second]);
  });

  it('releases the signals of an incident about to be deleted, once and again', async () => {
    const owner = await workspace();
    const signalId = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'releasing' });
    await settle();
    const { incidentId } = await getSignal(stack.client, owner.auth, signalId);
    await releaseIncidentSignals(systemScope(workspaceId(owner), stack.client.stack.ports), incidentId);
    await releaseIncidentSignals(systemScope(workspaceId(owner), stack.client.stack.ports), incidentId);
    expect((await getSignal(stack.client, owner.auth, signalId)).incidentId).toBeNull();
  });

  it('leaves no signal naming an incident that was deleted', async () => {
    const owner = await workspace();
    const signalId = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'deleted' });
    await settle();
    const { incidentId } = await getSignal(stack.client, owner.auth, signalId);
    expect(
      (await stack.client.request('DELETE', `/api/v1/incident-ticket/${incidentId}`, undefined, owner.auth)).status,
    ).toBe(200);
    expect((await getSignal(stack.client, owner.auth, signalId)).incidentId).toBeNull();
  });

  it('opens nothing below the MEDIUM threshold and one incident for all three signals at it', async () => {
    const owner = await workspace();
    const signals = [
      await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'inventory', source: 'monitoring' }),
      await postSignal(stack.client, owner.auth, {
        severity: 'MEDIUM',
        serviceId: 'inventory',
        source: 'metrics-alerts',
      }),
    ];
    await settle();
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);
    for (const id of signals) expect((await getSignal(stack.client, owner.auth, id)).incidentId).toBeNull();

    signals.push(await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'inventory' }));
    await settle();
    const incidents = await listIncidents(stack.client, owner.auth);
    expect(incidents).toHaveLength(1);
    const [incident] = incidents;
    expect(incident).toMatchObject({
      priority: 'MEDIUM',
      serviceArea: 'inventory',
      source: 'monitoring, metrics-alerts',
    });
    expect(incident?.summary).toMatch(/^3 signals on inventory: /);
    for (const id of signals) expect((await getSignal(stack.client, owner.auth, id)).incidentId).toBe(incident?.id);
    const linked = await listIncidentSignals(systemScope(workspaceId(owner), stack.client.stack.ports), incident?.id);
    expect(linked.map(({ id }) => id).sort()).toEqual([...signals].sort());

    // A fourth joins the open incident rather than counting towards a new one.
    const fourth = await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'inventory' });
    await settle();
    expect((await getSignal(stack.client, owner.auth, fourth)).incidentId).toBe(incident?.id);
    expect(await listIncidents(stack.client, owner.auth)).toHaveLength(1);
  });

  it('counts only signals within one window of the rule', async () => {
    const owner = await workspace();
    const at = (minutes: number) =>
      postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'mail', triggeredAt: minutesAgo(minutes) });
    const [, , fifteen, eight] = [await at(40), await at(25), await at(15), await at(8)];
    await settle();
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);

    // 15 and 8 minutes ago fit in one window, 4 minutes ago fits with 8: still two per window.
    const four = await at(4);
    await settle();
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);

    const now = await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'mail' });
    await settle();
    const incidents = await listIncidents(stack.client, owner.auth);
    expect(incidents).toHaveLength(1);
    const linked = await listIncidentSignals(
      systemScope(workspaceId(owner), stack.client.stack.ports),
      incidents[0]?.id,
    );
    expect(linked.map(({ id }) => id).sort()).toEqual([eight, four, now].sort());
    expect((await getSignal(stack.client, owner.auth, fifteen ?? '')).incidentId).toBeNull();
  });

  it('never opens an incident for LOW signals under the defaults', async () => {
    const owner = await workspace();
    for (let n = 0; n < 4; n += 1) await postSignal(stack.client, owner.auth, { severity: 'LOW', serviceId: 'docs' });
    await settle();
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);
  });

  it('opens a new incident for a signal that arrives after the group incident was resolved', async () => {
    const owner = await workspace();
    const first = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'auth' });
    await settle();
    const firstIncident = (await getSignal(stack.client, owner.auth, first)).incidentId;
    const resolved = await stack.client.request('POST', `${INCIDENTS}/resolve/${firstIncident}`, undefined, owner.auth);
    expect(resolved.status, resolved.text).toBe(200);

    const next = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'auth' });
    await settle();
    const nextIncident = (await getSignal(stack.client, owner.auth, next)).incidentId;
    expect(nextIncident).toMatch(/^INC-/);
    expect(nextIncident).not.toBe(firstIncident);
    expect((await getIncident(stack.client, owner.auth, firstIncident)).status).toBe('RESOLVED');
  });

  it('never correlates a suppressed signal, whether suppressed before correlation or after it was counted', async () => {
    const owner = await workspace();
    const { queue, captured } = capturingQueue(stack.client.stack.ports.queue);
    const early = await withRuntime(stack.client.stack.ports, { queue }, () =>
      postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'cdn' }),
    );
    const suppressed = await stack.client.request(
      'PATCH',
      `${SIGNALS}/${early}/suppress`,
      { reason: 'Known maintenance' },
      owner.auth,
    );
    expect(suppressed.status, suppressed.text).toBe(200);
    await stack.client.stack.ports.queue.send('correlation', captured);
    await settle();
    expect((await getSignal(stack.client, owner.auth, early)).incidentId).toBeNull();
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);

    const counted = [
      await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'queue' }),
      await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'queue' }),
    ];
    await settle();
    expect((await stack.client.request('PATCH', `${SIGNALS}/${counted[1]}/suppress`, {}, owner.auth)).status).toBe(200);
    const third = await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'queue' });
    await settle();
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);

    const fourth = await postSignal(stack.client, owner.auth, { severity: 'MEDIUM', serviceId: 'queue' });
    await settle();
    const [incident] = await listIncidents(stack.client, owner.auth);
    const linked = await listIncidentSignals(systemScope(workspaceId(owner), stack.client.stack.ports), incident?.id);
    expect(linked.map(({ id }) => id).sort()).toEqual([counted[0], third, fourth].sort());
    expect((await getSignal(stack.client, owner.auth, counted[1] ?? '')).incidentId).toBeNull();
  });

  it('applies a workspace rule on labels before the defaults, at its own priority', async () => {
    const owner = await workspace();
    await createRule(stack.client, owner.auth, {
      name: 'Payments team',
      order: 1,
      match: { sources: ['Metrics-Alerts'], labels: { team: ['payments'] } },
      groupBy: ['labels.team'],
      minSignals: 2,
      windowMinutes: 30,
      action: { priority: 'CRITICAL' },
    });
    const labelled = { source: 'metrics-alerts', metadata: { labels: { team: 'payments', env: 'staging' } } };
    const first = await postSignal(stack.client, owner.auth, { ...labelled, severity: 'HIGH', serviceId: 'cards' });
    await settle();
    // A HIGH signal the custom rule takes does not open at once: the rule comes first and needs two.
    expect(await listIncidents(stack.client, owner.auth)).toEqual([]);
    const second = await postSignal(stack.client, owner.auth, { ...labelled, severity: 'LOW', serviceId: 'ledger' });
    const unlabelled = await postSignal(stack.client, owner.auth, { severity: 'HIGH', serviceId: 'cards' });
    await settle();

    const custom = (await getSignal(stack.client, owner.auth, first)).incidentId;
    expect((await getSignal(stack.client, owner.auth, second)).incidentId).toBe(custom);
    expect(await getIncident(stack.client, owner.auth, custom)).toMatchObject({
      priority: 'CRITICAL',
      environment: 'staging',
      serviceArea: 'cards, ledger',
    });
    const byDefault = (await getSignal(stack.client, owner.auth, unlabelled)).incidentId;
    expect(byDefault).not.toBe(custom);
    expect(await getIncident(stack.client, owner.auth, byDefault)).toMatchObject({ priority: 'HIGH' });
  });
});
