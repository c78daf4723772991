import { describe, expect, it } from 'vitest';
import { getIncident, getSignal, listIncidents, useCorrelatingStack } from '../correlation/support.ts';
import { createTenant, listChanges } from '../ingestion-routes/support.ts';
import { CHANGE_ENQUEUE, ENQUEUE, INTEGRATION_KEYS, createIntegrationKey, fixtureOf, postEvent } from './support.ts';

const FOLDER = 'events-v2';

describe('PagerDuty Events API v2 (POST /api/v1/events/v2/enqueue)', () => {
  const stack = useCorrelatingStack();
  const settle = (): Promise<void> => stack.worker.idle();

  it('opens an incident from an Alertmanager trigger, merges its repeat, resolves it, and reopens after', async () => {
    const { client } = stack;
    const tenant = await createTenant(client, 'Pager Movers');
    const auth = tenant.admin.auth;
    const routingKey = await createIntegrationKey(client, tenant, 'checkout-api');
    const trigger = fixtureOf(FOLDER, 'alertmanager-0.25-pagerduty-trigger.json', { routing_key: routingKey });

    const first = await postEvent(client, ENQUEUE, trigger);
    expect(first.status, first.text).toBe(202);
    expect(first.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: trigger.dedup_key });
    await settle();
    const incidents = await listIncidents(client, auth);
    expect(incidents).toHaveLength(1);
    const signalId = (await getIncident(client, auth, incidents[0]?.id)).signalIds?.[0];

    const again = await postEvent(client, ENQUEUE, trigger);
    expect(again.status).toBe(202);
    await settle();
    expect(await listIncidents(client, auth)).toHaveLength(1);
    const signals = await client.request('GET', '/api/v1/signals?limit=100', undefined, auth);
    const alerts = (signals.body.data as Record<string, any>[]).filter((signal) => signal.source === 'events-v2');
    expect(alerts).toHaveLength(1);
    const alert = await getSignal(client, auth, alerts[0]?.id);
    expect(alert).toMatchObject({ severity: 'HIGH', serviceId: 'checkout-api', occurrences: 2 });
    expect(alert.metadata).toMatchObject({ dedupKey: trigger.dedup_key, origin: 'Alertmanager' });
    if (signalId) expect(signalId).toBe(alert.id);

    const resolve = fixtureOf(FOLDER, 'alertmanager-0.25-pagerduty-resolve.json', { routing_key: routingKey });
    expect((await postEvent(client, ENQUEUE, resolve)).status).toBe(202);
    expect((await getSignal(client, auth, alert.id)).status).toBe('RESOLVED');

    expect((await postEvent(client, ENQUEUE, trigger)).status).toBe(202);
    const after = await client.request('GET', '/api/v1/signals?limit=100', undefined, auth);
    const reopened = (after.body.data as Record<string, any>[]).filter((signal) => signal.source === 'events-v2');
    expect(reopened).toHaveLength(2);
    await settle();
  });

  it('acknowledges the alert of a dedup_key and the OPEN incident it opened', async () => {
    const { client } = stack;
    const tenant = await createTenant(client, 'Pager Ackers');
    const auth = tenant.admin.auth;
    const routingKey = await createIntegrationKey(client, tenant, 'db');
    const trigger = fixtureOf(FOLDER, 'pdjs-trigger.json', { routing_key: routingKey });
    const critical = { ...trigger, payload: { ...trigger.payload, severity: 'critical' } };
    expect((await postEvent(client, ENQUEUE, critical)).status).toBe(202);
    await settle();
    const [incident] = await listIncidents(client, auth);
    expect(incident?.status).toBe('OPEN');

    const acknowledge = fixtureOf(FOLDER, 'pdjs-acknowledge.json', { routing_key: routingKey });
    const reply = await postEvent(client, ENQUEUE, acknowledge);
    expect(reply.status, reply.text).toBe(202);
    expect(reply.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'disk-full/db-1' });
    expect((await postEvent(client, ENQUEUE, acknowledge)).status).toBe(202);
    await settle();
    const signals = await client.request('GET', '/api/v1/signals?limit=100', undefined, auth);
    expect(signals.body.data).toHaveLength(1);
    const signalId = signals.body.data[0].id;
    expect(await getSignal(client, auth, signalId)).toMatchObject({ status: 'ACKNOWLEDGED', incidentId: incident?.id });
    expect((await getIncident(client, auth, incident?.id)).status).toBe('ACKNOWLEDGED');

    const resolve = { ...acknowledge, event_action: 'resolve' };
    expect((await postEvent(client, ENQUEUE, resolve)).status).toBe(202);
    expect((await getSignal(client, auth, signalId)).status).toBe('RESOLVED');
    await settle();
  });

  it('keeps a client library event whole: payload fields, links and images', async () => {
    const { client } = stack;
    const tenant = await createTenant(client, 'Library Senders');
    const routingKey = await createIntegrationKey(client, tenant, 'db');
    const event = fixtureOf(FOLDER, 'pdjs-trigger.json', { routing_key: routingKey });
    const reply = await postEvent(client, ENQUEUE, event);
    expect(reply.status, reply.text).toBe(202);
    expect(reply.body.dedup_key).toBe('disk-full/db-1');
    const listed = await client.request('GET', '/api/v1/signals?limit=100', undefined, tenant.admin.auth);
    const [summary] = listed.body.data as Record<string, any>[];
    const signal = await getSignal(client, tenant.admin.auth, summary?.id);
    expect(signal).toMatchObject({ name: 'Disk almost full on db-1', severity: 'MEDIUM', serviceId: 'db' });
    expect(signal.metadata).toMatchObject({
      component: 'postgres',
      group: 'prod-datapipe',
      class: 'disk',
      customDetails: event.payload.custom_details,
      links: event.links,
      images: event.images,
    });
  });

  it('answers a bad event 400 "invalid event", and an unknown key 401, storing nothing', async () => {
    const { client } = stack;
    const { routing_key: _key, ...keyless } = fixtureOf(FOLDER, 'alertmanager-0.25-pagerduty-trigger.json');
    const missing = await postEvent(client, ENQUEUE, keyless);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 'invalid event', message: expect.any(String) });
    expect(missing.body.errors.join()).toMatch(/routing_key/);
    const long = fixtureOf(FOLDER, 'pdjs-trigger.json', { dedup_key: 'x'.repeat(256) });
    expect((await postEvent(client, ENQUEUE, long)).body.errors.join()).toMatch(/dedup_key/);
    const unknown = await postEvent(
      client,
      ENQUEUE,
      fixtureOf(FOLDER, 'pdjs-trigger.json', { routing_key: 'imsik_a.b.c' }),
    );
    expect(unknown.status).toBe(401);
  });

  it('takes an API key with ingestion:write as the routing key; a deleted integration key is refused', async () => {
    const { client } = stack;
    const tenant = await createTenant(client, 'Key Holders');
    const byApiKey = await postEvent(
      client,
      ENQUEUE,
      fixtureOf(FOLDER, 'pdjs-trigger.json', { routing_key: tenant.key }),
    );
    expect(byApiKey.status, byApiKey.text).toBe(202);
    const routingKey = await createIntegrationKey(client, tenant, 'db');
    const listed = await client.request('GET', INTEGRATION_KEYS, undefined, tenant.admin.auth);
    expect(listed.body.data).toEqual([expect.objectContaining({ serviceId: 'db' })]);
    expect(JSON.stringify(listed.body)).not.toContain(routingKey);
    const removed = await client.request(
      'DELETE',
      `${INTEGRATION_KEYS}/${listed.body.data[0].id}`,
      undefined,
      tenant.admin.auth,
    );
    expect(removed.status).toBe(200);
    const refused = await postEvent(
      client,
      ENQUEUE,
      fixtureOf(FOLDER, 'pdjs-trigger.json', { routing_key: routingKey }),
    );
    expect(refused.status).toBe(401);
  });

  it('turns a change event into a CHANGE ticket', async () => {
    const { client } = stack;
    const tenant = await createTenant(client, 'Change Makers');
    const routingKey = await createIntegrationKey(client, tenant, 'builds');
    const change = fixtureOf(FOLDER, 'change-event.json', { routing_key: routingKey });
    const reply = await postEvent(client, CHANGE_ENQUEUE, change);
    expect(reply.status, reply.text).toBe(202);
    expect(reply.body.status).toBe('success');
    expect((await postEvent(client, CHANGE_ENQUEUE, change)).status).toBe(202);
    const changes = await listChanges(client, tenant.keyHeaders);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.id).toMatch(/^events_v2-/);
  });
});
