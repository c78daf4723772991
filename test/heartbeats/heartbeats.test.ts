import { describe, expect, it } from 'vitest';
import { useCorrelatingStack } from '../correlation/support.ts';
import { clockAt, incidentsOf, mailTo, sweepAt, team, V1 } from './support.ts';

const HEARTBEATS = `${V1}/heartbeats`;
const SECOND = 1000;

const stack = useCorrelatingStack();

const later = (from: string, seconds: number): Date => new Date(Date.parse(from) + seconds * SECOND);

describe('heartbeats', () => {
  it('goes LATE, then DOWN opening one incident that pages, and a ping resolves it', async () => {
    const { client, worker } = stack;
    const { admin, alertEmail } = await team(client, 'Backups Inc');
    const created = await client.request(
      'POST',
      HEARTBEATS,
      { name: 'Nightly backup', intervalSeconds: 60, graceSeconds: 30, serviceId: 'backups' },
      admin.auth,
    );
    expect(created.status, created.text).toBe(201);
    const heartbeat = created.body.data;
    expect(heartbeat).toMatchObject({ state: 'UP', lastPingAt: null, priority: 'HIGH', paused: false });
    expect(heartbeat.pingUrl).toMatch(/\/api\/v1\/heartbeat-ping\/[\w.-]+$/);

    clockAt(client, later(heartbeat.createdAt, 75));
    const late = await client.request('GET', HEARTBEATS, undefined, admin.auth);
    clockAt(client, undefined);
    expect(late.body.data.heartbeats).toMatchObject([{ id: heartbeat.id, state: 'LATE' }]);

    // Still in its grace: the sweep raises nothing.
    await sweepAt(client, worker, later(heartbeat.createdAt, 89));
    expect(await incidentsOf(client, admin)).toEqual([]);

    await sweepAt(client, worker, later(heartbeat.createdAt, 91));
    await sweepAt(client, worker, later(heartbeat.createdAt, 151));
    const incidents = await incidentsOf(client, admin);
    expect(incidents).toHaveLength(1);
    const incident = incidents[0] as Record<string, any>;
    expect(incident).toMatchObject({ status: 'OPEN', priority: 'HIGH' });
    expect(incident.summary).toContain('Nightly backup');
    const pages = (await mailTo(client, alertEmail)).filter(({ subject }) => subject.includes(incident.id));
    expect(pages.length).toBeGreaterThan(0);
    clockAt(client, later(heartbeat.createdAt, 155));
    const down = await client.request('GET', `${HEARTBEATS}/${heartbeat.id}`, undefined, admin.auth);
    clockAt(client, undefined);
    expect(down.body.data).toMatchObject({ state: 'DOWN', downSince: later(heartbeat.createdAt, 91).toISOString() });

    const pingPath = new URL(heartbeat.pingUrl).pathname;
    clockAt(client, later(heartbeat.createdAt, 160));
    const ping = await client.request('POST', pingPath);
    clockAt(client, undefined);
    expect(ping.status, ping.text).toBe(200);
    expect(ping.body.data).toMatchObject({ id: heartbeat.id, state: 'UP' });

    await sweepAt(client, worker, later(heartbeat.createdAt, 170));
    const [resolved] = await incidentsOf(client, admin);
    expect(resolved).toMatchObject({ id: incident.id, status: 'RESOLVED' });
    const up = await client.request('GET', `${HEARTBEATS}/${heartbeat.id}`, undefined, admin.auth);
    expect(up.body.data).toMatchObject({ downSince: null, lastPingAt: later(heartbeat.createdAt, 160).toISOString() });
  });

  it('pings by GET or POST with the URL alone; a wrong secret or an unknown token is a 404', async () => {
    const { client } = stack;
    const { admin } = await team(client, 'Cron Co');
    const created = await client.request('POST', HEARTBEATS, { name: 'cron', intervalSeconds: 3600 }, admin.auth);
    const path = new URL(created.body.data.pingUrl).pathname;
    expect((await client.request('GET', path)).status).toBe(200);
    expect((await client.request('POST', path, { ignored: true })).status).toBe(200);
    const wrongSecret = path.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    const refused = await client.request('GET', wrongSecret);
    expect(refused.status).toBe(404);
    expect(refused.body.errors).toEqual(['token: no heartbeat has this ping URL']);
    expect((await client.request('GET', `${V1}/heartbeat-ping/nonsense`)).status).toBe(404);
  });

  it('never raises a paused heartbeat, and lists it PAUSED', async () => {
    const { client, worker } = stack;
    const { admin } = await team(client, 'Paused Ltd');
    const body = { name: 'weekly report', intervalSeconds: 60, priority: 'CRITICAL' };
    const created = (await client.request('POST', HEARTBEATS, body, admin.auth)).body.data;
    const paused = await client.request('PUT', `${HEARTBEATS}/${created.id}`, { ...body, paused: true }, admin.auth);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.data).toMatchObject({ state: 'PAUSED', pingUrl: created.pingUrl });
    await sweepAt(client, worker, later(created.createdAt, 3600));
    expect(await incidentsOf(client, admin)).toEqual([]);
  });

  it('refuses intervals outside a minute to a week, naming the fields', async () => {
    const { client } = stack;
    const { admin } = await team(client, 'Strict GmbH');
    const reply = await client.request(
      'POST',
      HEARTBEATS,
      { name: ' ', intervalSeconds: 59, graceSeconds: -1, priority: 'URGENT' },
      admin.auth,
    );
    expect(reply.status).toBe(400);
    const fields = (reply.body.errors as string[]).map((error) => error.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['name', 'intervalSeconds', 'graceSeconds', 'priority']));
    const tooLong = await client.request('POST', HEARTBEATS, { name: 'x', intervalSeconds: 604_801 }, admin.auth);
    expect(tooLong.status).toBe(400);
    const deleted = await client.request('DELETE', `${HEARTBEATS}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, undefined, admin.auth);
    expect(deleted.status).toBe(404);
  });
});
