import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const POLICIES = '/api/v1/sla-policies';
const UNKNOWN_ID = '01J0000000000000000000000Z';

const fields = {
  name: 'Critical, everyone',
  priority: 'CRITICAL',
  responseTimeMinutes: 15,
  responseThreshold: 95,
  resolveTimeMinutes: 240,
  resolveThreshold: 90,
  escalationContact: 'tier-3',
  applicableTeam: '*',
  uptimeTarget: 99.95,
};

describe('SLA policies', () => {
  let client: TestClient;
  let admin: SignedIn;
  let engineer: SignedIn;
  let viewer: SignedIn;
  let other: SignedIn;

  const create = (body: Record<string, unknown>, as: SignedIn = admin) =>
    client.request('POST', POLICIES, body, as.auth);
  const created = async (body: Record<string, unknown> = {}, as: SignedIn = admin) => {
    const reply = await create({ ...fields, ...body }, as);
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  };

  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [engineer, viewer] = await Promise.all([joinAs(client, admin, 'ENGINEER'), joinAs(client, admin, 'VIEWER')]);
  });
  afterAll(() => client.stack.stop());

  it('creates an active policy with no breach, lists it and answers it whole with its compliance', async () => {
    const reply = await create({ ...fields, applicableTeam: ' Payments ' });
    expect(reply.status).toBe(201);
    expect(reply.body.message).toBe('SLA policy created');
    const policy = reply.body.data;
    expect(policy).toEqual({
      ...fields,
      applicableTeam: 'payments',
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      breachStatus: 'NONE',
      createdAt: expect.any(String),
      updatedAt: policy.createdAt,
    });
    const list = await client.request('GET', POLICIES, undefined, viewer.auth);
    expect(list.status).toBe(200);
    expect(list.body.data.policies).toContainEqual(policy);

    const one = await client.request('GET', `${POLICIES}/${policy.id}`, undefined, viewer.auth);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      ...policy,
      compliance: {
        governedIncidents: 0,
        response: { met: 0, breached: 0, metPercent: null, threshold: 95, holds: true },
        resolve: { met: 0, breached: 0, metPercent: null, threshold: 90, holds: true },
        uptime: { percent: 100, target: 99.95, holds: true },
      },
    });
  });

  it('replaces every field with PUT, keeping id and createdAt, and requires each field as on create', async () => {
    const policy = await created({}, engineer);
    const replaced = await client.request(
      'PUT',
      `${POLICIES}/${policy.id}`,
      { ...fields, name: 'Critical, search', applicableTeam: 'search', responseThreshold: 0, uptimeTarget: 99 },
      engineer.auth,
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data).toMatchObject({
      id: policy.id,
      createdAt: policy.createdAt,
      name: 'Critical, search',
      applicableTeam: 'search',
      responseThreshold: 0,
      uptimeTarget: 99,
      breachStatus: 'NONE',
    });
    const { escalationContact: _left, ...partial } = fields;
    const refused = await client.request('PUT', `${POLICIES}/${policy.id}`, partial, admin.auth);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.stringMatching(/^escalationContact: /)]);
    const kept = await client.request('GET', `${POLICIES}/${policy.id}`, undefined, admin.auth);
    expect(kept.body.data.name).toBe('Critical, search');
  });

  it('names every bad field and writes nothing', async () => {
    const before = (await client.request('GET', POLICIES, undefined, admin.auth)).body.data.policies.length;
    const reply = await create({
      name: '',
      priority: 'URGENT',
      responseTimeMinutes: 0,
      responseThreshold: 101,
      resolveTimeMinutes: 1.5,
      resolveThreshold: -1,
      escalationContact: 7,
      applicableTeam: 'team a',
      uptimeTarget: '99.9',
    });
    expect(reply.status).toBe(400);
    const named = (reply.body.errors as string[]).map((error) => error.split(':')[0]);
    expect(new Set(named)).toEqual(new Set(Object.keys(fields)));
    expect((await create({ ...fields, uptimeTarget: 1e-200 })).status).toBe(400);
    expect((await client.request('GET', POLICIES, undefined, admin.auth)).body.data.policies).toHaveLength(before);
  });

  it('deletes a policy, then answers 404 for it', async () => {
    const policy = await created();
    const deleted = await client.request('DELETE', `${POLICIES}/${policy.id}`, undefined, admin.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: policy.id });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await client.request(
        method,
        `${POLICIES}/${policy.id}`,
        method === 'PUT' ? fields : undefined,
        admin.auth,
      );
      expect(reply.status, method).toBe(404);
    }
  });

  it('answers 404 for unknown ids and for another workspace’s, and lists only the caller’s', async () => {
    const theirs = await created({ name: 'Theirs' }, other);
    for (const id of [UNKNOWN_ID, 'not-an-id', theirs.id]) {
      expect((await client.request('GET', `${POLICIES}/${id}`, undefined, admin.auth)).status).toBe(404);
      expect((await client.request('PUT', `${POLICIES}/${id}`, fields, admin.auth)).status).toBe(404);
      expect((await client.request('DELETE', `${POLICIES}/${id}`, undefined, admin.auth)).status).toBe(404);
    }
    const mine = (await client.request('GET', POLICIES, undefined, admin.auth)).body.data.policies;
    expect(mine.map((policy: { id: string }) => policy.id)).not.toContain(theirs.id);
    expect((await client.request('GET', `${POLICIES}/${theirs.id}`, undefined, other.auth)).status).toBe(200);
  });

  it('lets a VIEWER read only, reads with analytics:read keys and writes with incidents:write keys', async () => {
    const policy = await created();
    expect((await create(fields, viewer)).status).toBe(403);
    expect((await client.request('PUT', `${POLICIES}/${policy.id}`, fields, viewer.auth)).status).toBe(403);
    expect((await client.request('DELETE', `${POLICIES}/${policy.id}`, undefined, viewer.auth)).status).toBe(403);

    const analytics = await apiKeyHeaders(client, admin, ['analytics:read']);
    const incidentsRead = await apiKeyHeaders(client, admin, ['incidents:read']);
    const writer = await apiKeyHeaders(client, admin, ['incidents:write']);
    expect((await client.request('GET', POLICIES, undefined, analytics)).status).toBe(200);
    expect((await client.request('GET', `${POLICIES}/${policy.id}`, undefined, analytics)).status).toBe(200);
    expect((await client.request('GET', POLICIES, undefined, incidentsRead)).status).toBe(403);
    expect((await client.request('POST', POLICIES, fields, analytics)).status).toBe(403);
    expect((await client.request('POST', POLICIES, fields, writer)).status).toBe(201);
    expect((await client.request('PUT', `${POLICIES}/${policy.id}`, fields, writer)).status).toBe(200);
    expect((await client.request('GET', POLICIES, undefined, writer)).status).toBe(403);
    expect((await client.request('DELETE', `${POLICIES}/${policy.id}`, undefined, writer)).status).toBe(200);
  });
});
