import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant, expectAccepted, postRaw, SIGNALS } from '../ingestion-routes/support.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { byName, calculate, createService } from '../blast-radius/support.ts';

/** The real code host A deliveries of `Codertocat/Hello-World`, each as its failed twin. */
const FAILURES = {
  workflow_run: withFields(loadFixture('codehost-a', 'workflow_run.completed.0.json').body, {
    'workflow_run.status': 'completed',
    'workflow_run.conclusion': 'failure',
  }),
  deployment_status: withFields(loadFixture('codehost-a', 'deployment_status.created.0.json').body, {
    'deployment_status.state': 'failure',
  }),
};

describe("a code host's signal is the signal of the service owning its repository", () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await startTestStack(':memory:', undefined, { workers: true });
  });
  afterAll(() => client.stack.stop());

  const deliverFailure = async (keyHeaders: Record<string, string>, event: keyof typeof FAILURES) => {
    const headers = { 'x-github-event': event, 'x-github-delivery': randomUUID() };
    const body = JSON.stringify(FAILURES[event]);
    return expectAccepted(await postRaw(client, 'codehost-a', body, headers, { headers: keyHeaders }))
      .signalId as string;
  };

  /** The signal as stored, once correlation has run, and the incident it opened. */
  const signalAndIncident = async (admin: SignedIn, signalId: string) => {
    await client.stack.workers?.idle();
    const signal = await client.request('GET', `${SIGNALS}/${signalId}`, undefined, admin.auth);
    expect(signal.status, signal.text).toBe(200);
    const incidentId = signal.body.data.incidentId as string;
    expect(incidentId, 'correlation opened an incident').toMatch(/^INC-/);
    const incident = await client.request('GET', `/api/v1/incident-ticket/${incidentId}`, undefined, admin.auth);
    expect(incident.status, incident.text).toBe(200);
    return { signal: signal.body.data, incident: incident.body.data };
  };

  it('gives a failed workflow run the service named like its repository, and the incident its service area', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Run Owner Co');
    const helloWorld = await createService(client, admin, { name: 'hello-world' });
    const web = await createService(client, admin, { name: 'web' });
    const reply = await client.request(
      'POST',
      '/api/v1/service-map/dependencies',
      { sourceId: web.id, targetId: helloWorld.id },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(201);

    const signalId = await deliverFailure(keyHeaders, 'workflow_run');
    const { signal, incident } = await signalAndIncident(admin, signalId);
    expect(signal).toMatchObject({ type: 'pipeline_failure', serviceId: helloWorld.id });
    expect(incident.serviceArea).toBe('hello-world');
    expect(incident.summary).toMatch(/ on hello-world$/);

    const affected = byName(await calculate(client, admin.auth, { serviceId: helloWorld.id }));
    expect(affected['hello-world']).toMatchObject({ depth: 0, openSignals: 1, openIncidents: 1 });
    expect(affected.web).toMatchObject({ depth: 1, openSignals: 0 });
    const listed = await client.request('GET', `${SIGNALS}?serviceId=${helloWorld.id}`, undefined, admin.auth);
    expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([signalId]);
  });

  it('gives a failed deployment the service whose repository field names the repository', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'Deploy Owner Co');
    await createService(client, admin, { name: 'hello-world' });
    const checkout = await createService(client, admin, { name: 'checkout', repository: 'codertocat/hello-world' });

    const signalId = await deliverFailure(keyHeaders, 'deployment_status');
    const { signal, incident } = await signalAndIncident(admin, signalId);
    expect(signal).toMatchObject({ type: 'deployment_failure', serviceId: checkout.id });
    expect(incident).toMatchObject({ serviceArea: 'checkout', environment: 'production' });

    const report = await calculate(client, admin.auth, { triggerId: incident.id });
    expect(report.serviceId).toBe(checkout.id);
    expect(byName(report).checkout).toMatchObject({ openSignals: 1, openIncidents: 1 });
  });

  it('leaves a signal of a repository no service owns without a service, as before', async () => {
    const { admin, keyHeaders } = await createTenant(client, 'No Owner Co');
    await createService(client, admin, { name: 'checkout' });

    const signalId = await deliverFailure(keyHeaders, 'workflow_run');
    const { signal, incident } = await signalAndIncident(admin, signalId);
    expect(signal.serviceId).toBeNull();
    expect(incident.serviceArea ?? null).toBeNull();
  });
});
