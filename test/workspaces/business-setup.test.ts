import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { joinByInvitation, signUpDeveloper } from './support.ts';

let client: TestClient;

const setup = (who: SignedIn | undefined, body: unknown) =>
  client.request('PUT', '/api/v1/business/setup', body, who?.auth ?? {});
const members = (who: SignedIn) => client.request('GET', '/api/v1/business/get_members', undefined, who.auth);

beforeAll(async () => {
  client = await startTestStack();
});

afterAll(async () => {
  await client.stack.stop();
});

describe('PUT /business/setup', () => {
  it('creates a workspace for a developer without one (201), making them its ADMIN, then updates it (200)', async () => {
    const developer = await signUpDeveloper(client);
    expect((await members(developer)).status).toBe(403);

    const createdReply = await setup(developer, {
      businessName: 'Dev Shop',
      industry: 'Fintech',
      size: '11-50',
      timezone: 'Europe/Berlin',
    });
    expect(createdReply.status, createdReply.text).toBe(201);
    const { workspace, user } = createdReply.body.data;
    expect(workspace).toEqual({
      id: expect.any(String),
      businessName: 'Dev Shop',
      industry: 'Fintech',
      size: '11-50',
      timezone: 'Europe/Berlin',
      createdAt: expect.any(String),
    });
    expect(user).toMatchObject({ id: developer.user.id, businessId: workspace.id, roles: ['ADMIN'] });

    const listed = await members(developer);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: developer.user.id, email: developer.email, role: 'ADMIN', status: 'ACTIVE' }),
    ]);

    // Provided fields only: industry and size stay as they were.
    const updated = await setup(developer, { businessName: 'Dev Shop GmbH', timezone: 'UTC' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.workspace).toEqual({ ...workspace, businessName: 'Dev Shop GmbH', timezone: 'UTC' });
    expect((await login(client, developer.email, developer.password)).user.businessId).toBe(workspace.id);
  });

  it('lets the ADMIN of a registered business update its fields', async () => {
    const admin = await signUpBusiness(client, { businessName: 'Acme Ops' });
    const reply = await setup(admin, { businessName: 'Acme Operations', size: '1000+' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.workspace).toMatchObject({
      id: admin.user.businessId,
      businessName: 'Acme Operations',
      size: '1000+',
    });
  });

  it('answers 400 for an unknown time zone, a bad size and a missing business name', async () => {
    const admin = await signUpBusiness(client);
    for (const timezone of ['Mars/Olympus_Mons', '+02:00', 'GMT+2 hours', '']) {
      const reply = await setup(admin, { businessName: 'Acme', timezone });
      expect(reply.status, timezone).toBe(400);
      expect(reply.body.errors[0]).toMatch(/^timezone:/);
    }
    for (const size of ['many', '50-11', '-5']) {
      const reply = await setup(admin, { businessName: 'Acme', size });
      expect(reply.status, size).toBe(400);
      expect(reply.body.errors[0]).toMatch(/^size:/);
    }
    const missing = await setup(admin, { industry: 'Retail' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatch(/^businessName:/);
  });

  it('answers 401 without a Bearer token', async () => {
    expect((await setup(undefined, { businessName: 'Nobody' })).status).toBe(401);
  });
});

describe('GET /business/get_members', () => {
  it("lists the caller's workspace only, to every role", async () => {
    const first = await signUpBusiness(client, { businessName: 'First' });
    const second = await signUpBusiness(client, { businessName: 'Second' });
    const viewer = await joinByInvitation(client, first, 'VIEWER');

    const ofFirst = await members(viewer);
    expect(ofFirst.status).toBe(200);
    expect(ofFirst.body.data.map((member: { email: string }) => member.email)).toEqual([first.email, viewer.email]);
    expect(ofFirst.body.data[1]).toEqual({
      id: viewer.user.id,
      email: viewer.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'VIEWER',
      level: 'SENIOR',
      accessPermissions: ['incidents'],
      status: 'ACTIVE',
    });

    const ofSecond = await members(second);
    expect(ofSecond.body.data.map((member: { email: string }) => member.email)).toEqual([second.email]);
  });

  it('answers 401 without a Bearer token', async () => {
    expect((await client.request('GET', '/api/v1/business/get_members')).status).toBe(401);
  });
});
