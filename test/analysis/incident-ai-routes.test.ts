import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { createTenant } from '../ingestion-routes/support.ts';
import { JARGON, deployHelloWorld, mapServices, postSignal } from './support.ts';
import { createIncident } from '../support/incidents.ts';

const AI = '/api/v1/incident-ticket/resolve/ai';

describe('incident AI routes', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  let incidentId: string;
  let deploySignal: string;

  beforeAll(async () => {
    client = await startTestStack();
    const tenant = await createTenant(client, 'Routes Co');
    admin = tenant.admin;
    ({ admin: other } = await createTenant(client, 'Other Co'));
    viewer = await joinAs(client, admin, 'VIEWER');
    await mapServices(client, admin, ['checkout', 'hello-world'], [['checkout', 'hello-world']]);
    await deployHelloWorld(client, tenant.keyHeaders);
    deploySignal = await postSignal(client, admin, { name: 'hello-world 5xx above 5%', serviceId: 'hello-world' });
    await postSignal(client, admin, { name: 'checkout errors', serviceId: 'checkout' });
    incidentId = (
      await createIncident(client, admin.auth, {
        serviceArea: 'hello-world',
        description: 'Some customers cannot pay',
      })
    ).id;
  });
  afterAll(() => client.stack.stop());

  it('answers five whys grounded in the evidence, or saying what is unknown', async () => {
    const reply = await client.request('GET', `${AI}/five-whys/${incidentId}`, undefined, viewer.auth);
    expect(reply.status, reply.text).toBe(200);
    const data = reply.body.data;
    expect(data.why1).toMatch(/hello-world began failing/);
    expect(data.why2).toMatch(/Deployment codehost_a-145988746/);
    expect(data.why3).toMatch(/^Unknown what in f95f852/);
    expect(data.why5).toMatch(/checkout depend on hello-world/);
    expect(data.rootCause).toMatch(/deployed to hello-world/);
    expect(data.citations.whys[0]).toEqual([`signal:${deploySignal}`]);
    expect(data.citations.whys[1]).toEqual(['deploy:codehost_a-145988746']);
    for (const [index, ids] of data.citations.whys.entries()) {
      if (ids.length === 0) expect(data[`why${index + 1}`]).toMatch(/Unknown/);
    }
  });

  it('suggests ordered remediation citing evidence, and a stakeholder message without jargon', async () => {
    const suggestion = await client.request('GET', `${AI}/suggestion/${incidentId}`, undefined, admin.auth);
    expect(suggestion.status).toBe(200);
    expect(suggestion.body.data.suggestions[0]).toMatchObject({
      action: expect.stringMatching(/^Roll hello-world back/),
      evidenceIds: ['deploy:codehost_a-145988746'],
    });
    const stakeholder = await client.request('GET', `${AI}/stakeholder/${incidentId}`, undefined, admin.auth);
    expect(stakeholder.status).toBe(200);
    expect(stakeholder.body.data.message).toMatch(/software update released to the hello-world service/);
    expect(stakeholder.body.data.message).not.toMatch(JARGON);
  });

  it('resolves with a customer KB draft, and drafts one again for an incident already RESOLVED', async () => {
    const target = (
      await createIncident(client, admin.auth, { serviceArea: 'hello-world', description: 'Payments failed' })
    ).id;
    const resolveWithKb = (as: SignedIn) =>
      client.request('POST', `/api/v1/incident-ticket/resolve/customer-kb/${target}`, undefined, as.auth);
    expect((await resolveWithKb(viewer)).status).toBe(403);
    const reply = await resolveWithKb(admin);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.incident).toMatchObject({ id: target, status: 'RESOLVED' });
    expect(reply.body.data.kbArticle).toMatchObject({
      incidentId: target,
      status: 'DRAFT',
      title: 'Resolved: Checkout requests failing',
    });
    expect(reply.body.data.kbArticle.content).toMatch(/## Who was affected\nPayments failed/);
    expect(reply.body.data.kbArticle.content).not.toMatch(JARGON);
    const again = await resolveWithKb(admin);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.incident).toEqual(reply.body.data.incident);
    expect(again.body.data.kbArticle).toMatchObject({
      incidentId: target,
      status: 'DRAFT',
      title: 'Resolved: Checkout requests failing',
      content: reply.body.data.kbArticle.content,
    });
  });

  it("answers 404 for another workspace's or a malformed id, and checks scopes", async () => {
    let theirs = '';
    for (let count = 0; count < 8; count += 1) theirs = (await createIncident(client, other.auth)).id;
    for (const path of [`${AI}/five-whys/${theirs}`, `${AI}/suggestion/${theirs}`, `${AI}/stakeholder/nope`]) {
      expect((await client.request('GET', path, undefined, admin.auth)).status).toBe(404);
    }
    const incidentsOnly = await apiKeyHeaders(client, admin, ['incidents:read', 'incidents:write']);
    const reader = await apiKeyHeaders(client, admin, ['postmortems:read']);
    expect((await client.request('GET', `${AI}/five-whys/${incidentId}`, undefined, incidentsOnly)).status).toBe(403);
    expect((await client.request('GET', `${AI}/five-whys/${incidentId}`, undefined, reader)).status).toBe(200);
    expect(
      (await client.request('POST', `/api/v1/incident-ticket/resolve/customer-kb/${incidentId}`, undefined, reader))
        .status,
    ).toBe(403);
  });
});
