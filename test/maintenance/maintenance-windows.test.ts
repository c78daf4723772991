import { describe, expect, it } from 'vitest';
import { postSignal, getSignal, useCorrelatingStack } from '../correlation/support.ts';
import { incidentsOf, mailTo, sweepAt, team, V1 } from '../heartbeats/support.ts';

const WINDOWS = `${V1}/maintenance-windows`;
const MINUTE = 60_000;

const stack = useCorrelatingStack();

const window = (serviceIds: string[], startsAt: Date, endsAt: Date) => ({
  serviceIds,
  startsAt: startsAt.toISOString(),
  endsAt: endsAt.toISOString(),
  reason: 'Database upgrade',
});

describe('maintenance windows', () => {
  it('stores an alert of a service in maintenance without an incident or a page; the same alert after the window opens one', async () => {
    const { client, worker } = stack;
    const { admin, alertEmail } = await team(client, 'Checkout Corp');
    const now = Date.now();
    const created = await client.request(
      'POST',
      WINDOWS,
      window(['Checkout'], new Date(now - MINUTE), new Date(now + 60 * MINUTE)),
      admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ active: true, serviceIds: ['Checkout'], createdBy: admin.email });

    const alert = { name: 'Checkout 5xx', severity: 'HIGH', serviceId: 'checkout' };
    const during = await postSignal(client, admin.auth, alert);
    await worker.idle();
    await client.stack.deliveriesIdle();
    expect(await incidentsOf(client, admin)).toEqual([]);
    expect(await mailTo(client, alertEmail)).toEqual([]);
    const held = await getSignal(client, admin.auth, during);
    expect(held).toMatchObject({ status: 'RESOLVED', incidentId: null });
    expect(held.notes[0].text).toContain('maintenance window "Database upgrade"');

    // Ended early: a PUT with an end of now.
    const ended = await client.request(
      'PUT',
      `${WINDOWS}/${created.body.data.id}`,
      window(['Checkout'], new Date(now - MINUTE), new Date()),
      admin.auth,
    );
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.data.active).toBe(false);

    const after = await postSignal(client, admin.auth, alert);
    await worker.idle();
    await client.stack.deliveriesIdle();
    expect(after).not.toBe(during);
    const [incident] = await incidentsOf(client, admin);
    expect(incident).toMatchObject({ status: 'OPEN', serviceArea: 'checkout' });
    const pages = await mailTo(client, alertEmail);
    expect(pages.some(({ subject }) => subject.includes(incident?.id))).toBe(true);

    const listed = await client.request('GET', WINDOWS, undefined, admin.auth);
    expect(listed.body.data.maintenanceWindows).toMatchObject([{ id: created.body.data.id, active: false }]);
  });

  it("holds an incident's escalation while a window opens on its service, and escalates once it closes", async () => {
    const { client, worker } = stack;
    const { admin, alertEmail } = await team(client, 'Payments Plc');
    const config = await client.request('PUT', `${V1}/ims/config`, { autoEscalate: true }, admin.auth);
    expect(config.status, config.text).toBe(200);
    const opened = await client.request(
      'POST',
      `${V1}/incident-ticket`,
      { summary: 'Card payments failing', priority: 'HIGH', serviceArea: 'payments' },
      admin.auth,
    );
    expect(opened.status, opened.text).toBe(201);
    const incident = opened.body.data;
    const createdAt = Date.parse(incident.createdAt);
    const escalations = async () =>
      (await mailTo(client, alertEmail)).filter(
        ({ subject }) => subject.includes(incident.id) && subject.includes('not acknowledged'),
      );

    // The window opens mid-incident, before its first escalation falls due (15 minutes without a policy).
    const maintenance = await client.request(
      'POST',
      WINDOWS,
      window(['payments'], new Date(createdAt + 5 * MINUTE), new Date(createdAt + 60 * MINUTE)),
      admin.auth,
    );
    expect(maintenance.status, maintenance.text).toBe(201);

    await sweepAt(client, worker, new Date(createdAt + 20 * MINUTE));
    await sweepAt(client, worker, new Date(createdAt + 21 * MINUTE));
    expect(await escalations()).toEqual([]);
    const thread = await client.request('GET', `${V1}/incident-ticket/message/${incident.id}`, undefined, admin.auth);
    const holds = (thread.body.data as { text: string }[]).filter(({ text }) => text.startsWith('Escalation held'));
    expect(holds).toHaveLength(1);

    // Closed early, at minute 25: the next sweep escalates.
    const closed = await client.request(
      'PUT',
      `${WINDOWS}/${maintenance.body.data.id}`,
      window(['payments'], new Date(createdAt + 5 * MINUTE), new Date(createdAt + 25 * MINUTE)),
      admin.auth,
    );
    expect(closed.status, closed.text).toBe(200);
    await sweepAt(client, worker, new Date(createdAt + 26 * MINUTE));
    expect((await escalations()).length).toBeGreaterThan(0);
  });

  it('refuses a window that ends before it starts, and names the fields', async () => {
    const { client } = stack;
    const { admin } = await team(client, 'Strict Maint');
    const now = new Date();
    const reply = await client.request(
      'POST',
      WINDOWS,
      { serviceIds: [], startsAt: now.toISOString(), endsAt: now.toISOString(), reason: '' },
      admin.auth,
    );
    expect(reply.status).toBe(400);
    const fields = (reply.body.errors as string[]).map((error) => error.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['serviceIds', 'reason']));
    const backwards = await client.request(
      'POST',
      WINDOWS,
      window(['x'], now, new Date(now.getTime() - MINUTE)),
      admin.auth,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual(['endsAt: must be after startsAt']);
  });
});
