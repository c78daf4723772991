import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createKey } from '../api-keys/api-key-requests.ts';
import { joinByInvitation } from '../workspaces/support.ts';
import { historyOf } from './support.ts';
import { INCIDENTS, createIncident } from '../support/incidents.ts';

describe('who may call the incident routes', () => {
  let client: TestClient;
  let admin: SignedIn;
  let viewer: SignedIn;
  let engineer: SignedIn;
  let incidentId: string;
  beforeAll(async () => {
    client = await startTestStack();
    admin = await signUpBusiness(client);
    [viewer, engineer] = await Promise.all([
      joinByInvitation(client, admin, 'VIEWER'),
      joinByInvitation(client, admin, 'ENGINEER'),
    ]);
    incidentId = (await createIncident(client, admin.auth)).id;
  });
  afterAll(() => client.stack.stop());

  const reads = () =>
    [
      ['GET', `${INCIDENTS}/generate-id`],
      ['GET', INCIDENTS],
      ['GET', `${INCIDENTS}/analytics`],
      ['GET', `${INCIDENTS}/${incidentId}`],
      ['GET', `${INCIDENTS}/comment/${incidentId}`],
      ['GET', `${INCIDENTS}/message/${incidentId}`],
      ['POST', `${INCIDENTS}/generate-pdf`, { incidentId }],
      ['POST', '/api/v1/generate-pdf', { id: incidentId }],
    ] as const;
  const writes = () =>
    [
      ['POST', INCIDENTS, { summary: 'x', priority: 'LOW' }],
      ['PUT', `${INCIDENTS}/${incidentId}`, { summary: 'changed' }],
      ['POST', `${INCIDENTS}/comment`, { ticketId: incidentId, content: 'hi' }],
      ['POST', `${INCIDENTS}/resolve/${incidentId}`],
      ['DELETE', `${INCIDENTS}/${incidentId}`],
    ] as const;

  it('lets a VIEWER read everything, analytics and PDFs included, and change nothing', async () => {
    for (const [method, path, body] of reads()) {
      const reply = await client.request(method, path, body, viewer.auth);
      expect(reply.status, `${method} ${path}: ${reply.text.slice(0, 200)}`).toBe(200);
    }
    for (const [method, path, body] of writes()) {
      const reply = await client.request(method, path, body, viewer.auth);
      expect(reply.status, `${method} ${path}`).toBe(403);
    }
    const unchanged = await client.request('GET', `${INCIDENTS}/${incidentId}`, undefined, admin.auth);
    expect(unchanged.body.data.status).toBe('OPEN');
  });

  it('lets an ENGINEER change incidents, named as the actor', async () => {
    const incident = await createIncident(client, engineer.auth);
    expect(incident.createdBy).toBe(engineer.email);
    const updated = await client.request(
      'PUT',
      `${INCIDENTS}/${incident.id}`,
      { status: 'ACKNOWLEDGED' },
      engineer.auth,
    );
    expect(updated.status).toBe(200);
    expect((await historyOf(client, admin.auth, incident.id)).map((event) => event.actor)).toEqual([
      engineer.email,
      engineer.email,
    ]);
  });

  it('asks for credentials', async () => {
    expect((await client.request('GET', INCIDENTS)).status).toBe(401);
    expect((await client.request('POST', INCIDENTS, { summary: 'x', priority: 'LOW' })).status).toBe(401);
    expect((await client.request('GET', INCIDENTS, undefined, { 'x-api-key': 'ims_nope.nope.nope' })).status).toBe(401);
  });

  it('gives an API key what its scopes allow', async () => {
    const reader = await createKey(client, admin, { name: 'dashboards', scopes: ['incidents:read'] });
    const asReader = { 'x-api-key': reader.key };
    expect((await client.request('GET', INCIDENTS, undefined, asReader)).status).toBe(200);
    expect((await client.request('GET', `${INCIDENTS}/${incidentId}`, undefined, asReader)).status).toBe(200);
    const refused = await client.request('POST', INCIDENTS, { summary: 'x', priority: 'LOW' }, asReader);
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual(['scope: incidents:write is required']);
    expect((await client.request('GET', `${INCIDENTS}/analytics`, undefined, asReader)).status).toBe(403);
    expect((await client.request('POST', `${INCIDENTS}/generate-pdf`, { incidentId }, asReader)).status).toBe(403);

    const writer = await createKey(client, admin, {
      name: 'pager bridge',
      scopes: ['incidents:read', 'incidents:write', 'analytics:read', 'postmortems:read'],
    });
    const asWriter = { 'x-api-key': writer.key };
    const created = await client.request(
      'POST',
      INCIDENTS,
      { summary: 'From the pager', priority: 'CRITICAL' },
      asWriter,
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ createdBy: 'api-key:pager bridge', businessId: admin.user.businessId });
    const commented = await client.request(
      'POST',
      `${INCIDENTS}/comment`,
      { ticketId: created.body.data.id, content: 'auto' },
      asWriter,
    );
    expect(commented.body.data.authorEmail).toBe('api-key:pager bridge');
    expect((await client.request('GET', `${INCIDENTS}/analytics`, undefined, asWriter)).status).toBe(200);
    expect((await client.request('POST', '/api/v1/generate-pdf', { id: created.body.data.id }, asWriter)).status).toBe(
      200,
    );
    const listed = await client.request('GET', INCIDENTS, undefined, admin.auth);
    expect(listed.body.data.map((incident: { id: string }) => incident.id)).toContain(created.body.data.id);
  });

  it('serves the analysis routes with the analysis engine (test/analysis/incident-ai-routes.test.ts)', async () => {
    for (const path of ['resolve/ai/five-whys', 'resolve/ai/suggestion', 'resolve/ai/stakeholder']) {
      expect(
        (await client.request('GET', `${INCIDENTS}/${path}/${incidentId}`, undefined, admin.auth)).status,
        path,
      ).toBe(200);
    }
  });
});
