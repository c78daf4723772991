import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, type SignedIn, signUpBusiness } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { PLAYBOOKS, playbookApi } from './helpers.ts';

const MATCH = `${PLAYBOOKS}/match`;

describe('POST /playbooks/match', () => {
  let client: TestClient;
  let api: ReturnType<typeof playbookApi>;
  let admin: SignedIn;
  let other: SignedIn;
  let payments: { id: string };
  let database: { id: string };

  beforeAll(async () => {
    client = await startTestStack();
    api = playbookApi(client);
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    payments = await api.createPublished(admin, {
      title: 'Payments outage',
      triggerConditions: { serviceArea: ['Payments'], priority: ['HIGH', 'CRITICAL'], environment: 'production' },
    });
    database = await api.createPublished(admin, {
      title: 'Database saturation',
      triggerConditions: { keywords: ['connection pool', 'timeout'], priority: 'HIGH' },
    });
    // Never offered: a draft, and a published playbook without conditions (it scores exactly the floor).
    await api.create(admin, {
      title: 'Draft',
      triggerConditions: { serviceArea: 'payments', priority: 'HIGH', environment: 'production' },
    });
    await api.createPublished(admin, { title: 'No conditions' });
  });
  afterAll(() => client.stack.stop());

  const match = (body: Record<string, unknown>, as: SignedIn = admin) => api.call('POST', MATCH, body, as);

  it('answers the best published playbook with its score', async () => {
    expect(await match({ serviceArea: 'payments', priority: 'CRITICAL', environment: 'Production' })).toEqual({
      playbookId: payments.id,
      title: 'Payments outage',
      matchScore: 0.9,
    });
    // 0.35 + 0.25, the environment missing (0) and keywords unset (0.5 x 0.2).
    expect(await match({ serviceArea: 'payments', priority: 'HIGH' })).toEqual({
      playbookId: payments.id,
      title: 'Payments outage',
      matchScore: 0.7,
    });
    // A priority that does not fit and an environment missing: 0.45, not above the floor.
    expect(await match({ serviceArea: 'payments', priority: 'LOW' })).toBeNull();
  });

  it('scores keywords as the share found in summary and description, as whole words', async () => {
    const both = await match({
      priority: 'HIGH',
      summary: 'API timeout',
      description: 'The connection pool is exhausted',
    });
    expect(both).toEqual({ playbookId: database.id, title: 'Database saturation', matchScore: 0.725 });
    const half = await match({ priority: 'HIGH', summary: 'timeouts and timeout' });
    expect(half).toMatchObject({ playbookId: database.id, matchScore: 0.625 });
  });

  it('answers data: null when nothing scores above the floor', async () => {
    const reply = await client.request('POST', MATCH, { serviceArea: 'search', priority: 'LOW' }, admin.auth);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, message: 'No published playbook fits', data: null });
    expect(await match({})).toBeNull();
  });

  it("fills what the body leaves out from the incident's own fields", async () => {
    const incident = await api.incident(admin, {
      summary: 'Card payments fail',
      priority: 'CRITICAL',
      serviceArea: 'payments',
      environment: 'production',
    });
    expect(await match({ incidentId: incident.id })).toMatchObject({ playbookId: payments.id, matchScore: 0.9 });
    expect(await match({ incidentId: incident.id, environment: 'staging' })).toMatchObject({ matchScore: 0.7 });
    const dbIncident = await api.incident(admin, { summary: 'Connection pool timeout', priority: 'HIGH' });
    expect(await match({ incidentId: dbIncident.id })).toMatchObject({ playbookId: database.id });
  });

  it("answers 404 for another workspace's incident and 400 for bad fields", async () => {
    // Incident ids count per workspace and day: the other workspace's fourth names nothing here (two exist).
    for (let index = 0; index < 3; index += 1) await api.incident(other, {});
    const theirs = await api.incident(other, {});
    expect((await client.request('POST', MATCH, { incidentId: theirs.id }, admin.auth)).status).toBe(404);
    const bad = await client.request('POST', MATCH, { priority: 'P1', serviceArea: 7 }, admin.auth);
    expect(bad.status).toBe(400);
    expect((bad.body.errors as string[]).map((error) => error.split(':')[0]).sort()).toEqual([
      'priority',
      'serviceArea',
    ]);
  });

  it("never offers another workspace's playbooks", async () => {
    expect(await match({ serviceArea: 'payments', priority: 'CRITICAL', environment: 'production' }, other)).toBeNull();
  });

  it('neither matches nor executes a published playbook under a new draft until it is published again', async () => {
    const business = await signUpBusiness(client, { businessName: 'Match Co' });
    const playbook = await api.createPublished(business, {
      title: 'Search slow',
      triggerConditions: { serviceArea: 'search', priority: 'HIGH' },
    });
    const subject = { serviceArea: 'search', priority: 'HIGH' };
    expect(await match(subject, business)).toMatchObject({ playbookId: playbook.id, matchScore: 0.8 });

    const draft = await api.call(
      'PUT',
      `${PLAYBOOKS}/${playbook.id}`,
      { title: 'Search and billing slow', triggerConditions: { serviceArea: ['search', 'billing'], priority: 'HIGH' } },
      business,
    );
    expect(draft).toMatchObject({ status: 'DRAFT', version: 2, publishedVersion: 1 });
    // The only playbook of its workspace, and it fits both its published and its draft conditions: no fit.
    for (const body of [subject, { serviceArea: 'billing', priority: 'HIGH' }]) {
      const reply = await client.request('POST', MATCH, body, business.auth);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: true, message: 'No published playbook fits', data: null });
    }
    const refused = await client.request('POST', `${PLAYBOOKS}/${playbook.id}/execute`, {}, business.auth);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Only a published playbook can be executed');

    await api.publish(business, playbook.id);
    const found = { playbookId: playbook.id, title: 'Search and billing slow', matchScore: 0.8 };
    expect(await match(subject, business)).toEqual(found);
    expect(await match({ serviceArea: 'billing', priority: 'HIGH' }, business)).toEqual(found);
    const execution = await api.execute(business, playbook.id);
    expect(execution).toMatchObject({ playbookVersion: 2, playbookTitle: 'Search and billing slow' });
  });

  it('takes a key with incidents:read', async () => {
    const reader = await apiKeyHeaders(client, admin, ['incidents:read']);
    expect((await client.request('POST', MATCH, { priority: 'HIGH' }, reader)).status).toBe(200);
    const analyst = await apiKeyHeaders(client, admin, ['analytics:read']);
    expect((await client.request('POST', MATCH, { priority: 'HIGH' }, analyst)).status).toBe(403);
  });
});
