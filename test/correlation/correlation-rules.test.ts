import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { apiKeyHeaders, joinAs } from '../support/accounts.ts';
import { RULES, createRule } from './support.ts';

const RULE = {
  name: 'Payments pages',
  match: { sources: ['metrics-alerts'], severity: { min: 'MEDIUM' }, labels: { team: ['payments'] } },
  groupBy: ['source', 'labels.team'],
  windowMinutes: 15,
  minSignals: 2,
  action: { priority: 'CRITICAL' },
};

const UNKNOWN_RULE = '01J0000000000000000000000Z';

describe('correlation rules', () => {
  let client: TestClient;
  let admin: SignedIn;
  let other: SignedIn;
  beforeAll(async () => {
    client = await startTestStack();
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
  });
  afterAll(() => client.stack.stop());

  it('gives a new workspace the built-in defaults, marked as such', async () => {
    const fresh = await signUpBusiness(client, { businessName: 'Fresh Co' });
    const reply = await client.request('GET', RULES, undefined, fresh.auth);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual([
      expect.objectContaining({
        id: 'default-high',
        isDefault: true,
        isActive: true,
        match: { severity: { in: ['HIGH'] } },
        groupBy: ['source', 'serviceId'],
        minSignals: 1,
        action: { priority: 'HIGH' },
        createdAt: null,
      }),
      expect.objectContaining({
        id: 'default-medium',
        isDefault: true,
        match: { severity: { in: ['MEDIUM'] } },
        groupBy: ['serviceId'],
        windowMinutes: 10,
        minSignals: 3,
        action: { priority: 'MEDIUM' },
      }),
    ]);
    const one = await client.request('GET', `${RULES}/default-medium`, undefined, fresh.auth);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.id).toBe('default-medium');
  });

  it('creates a rule with defaults for the fields left out and lists it after the stored defaults', async () => {
    const rule = await createRule(client, admin.auth, {
      name: 'Anything from the canary',
      match: { sources: ['canary'] },
      action: { priority: 'LOW' },
    });
    expect(rule).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: 'Anything from the canary',
      description: null,
      order: 100,
      isActive: true,
      isDefault: false,
      match: { sources: ['canary'] },
      groupBy: ['source', 'serviceId'],
      windowMinutes: 10,
      minSignals: 1,
      action: { priority: 'LOW' },
    });
    expect(rule.createdAt).toBe(rule.updatedAt);

    const list = await client.request('GET', RULES, undefined, admin.auth);
    expect(list.body.data.map((listed: { id: string }) => listed.id)).toEqual([
      'default-high',
      'default-medium',
      rule.id,
    ]);
    // The first write stored the defaults as the workspace's own rules.
    expect(list.body.data[0]).toMatchObject({ id: 'default-high', isDefault: true, createdAt: expect.any(String) });
    const fetched = await client.request('GET', `${RULES}/${rule.id}`, undefined, admin.auth);
    expect(fetched.body.data).toEqual(rule);
  });

  it('refuses malformed rules with a message per field', async () => {
    const missing = await client.request('POST', RULES, { match: {} }, admin.auth);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.join(' ')).toMatch(/name/);
    expect(missing.body.errors.join(' ')).toMatch(/action/);

    const bad = await client.request(
      'POST',
      RULES,
      {
        ...RULE,
        match: { severity: { min: 'MEDIUM', in: ['HIGH'] }, service: ['typo'] },
        groupBy: ['source', 'source', 'colour'],
        windowMinutes: 2000,
        minSignals: 0,
        action: { priority: 'URGENT' },
        threshold: 3,
      },
      admin.auth,
    );
    expect(bad.status, bad.text).toBe(400);
    const errors = bad.body.errors.join('\n');
    for (const field of ['match', 'groupBy', 'windowMinutes', 'minSignals', 'action.priority', 'threshold'])
      expect(errors).toContain(field);

    const badLabel = await client.request(
      'POST',
      RULES,
      { ...RULE, match: { labels: { 'has space': ['x'] } } },
      admin.auth,
    );
    expect(badLabel.status).toBe(400);
    const emptyList = await client.request('POST', RULES, { ...RULE, match: { sources: [] } }, admin.auth);
    expect(emptyList.status).toBe(400);
  });

  it('changes only the fields given, and answers 404 for a rule it does not have', async () => {
    const rule = await createRule(client, admin.auth, { ...RULE, description: 'Page the payments team' });
    const reply = await client.request(
      'PUT',
      `${RULES}/${rule.id}`,
      { minSignals: 4, isActive: false, description: null },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({
      ...RULE,
      id: rule.id,
      minSignals: 4,
      isActive: false,
      description: null,
      createdAt: rule.createdAt,
    });
    expect(reply.body.data.updatedAt >= rule.updatedAt).toBe(true);

    const editedDefault = await client.request('PUT', `${RULES}/default-medium`, { minSignals: 2 }, admin.auth);
    expect(editedDefault.status, editedDefault.text).toBe(200);
    expect(editedDefault.body.data).toMatchObject({ id: 'default-medium', minSignals: 2, isDefault: true });

    expect((await client.request('PUT', `${RULES}/${rule.id}`, {}, admin.auth)).status).toBe(400);
    expect((await client.request('PUT', `${RULES}/${UNKNOWN_RULE}`, { minSignals: 2 }, admin.auth)).status).toBe(404);
    expect((await client.request('PUT', `${RULES}/not-a-rule`, { minSignals: 2 }, admin.auth)).status).toBe(404);
    expect((await client.request('GET', `${RULES}/${UNKNOWN_RULE}`, undefined, admin.auth)).status).toBe(404);
    // Another workspace's rule is not found.
    expect((await client.request('GET', `${RULES}/${rule.id}`, undefined, other.auth)).status).toBe(404);
    expect((await client.request('PUT', `${RULES}/${rule.id}`, { minSignals: 2 }, other.auth)).status).toBe(404);
  });

  it('deletes a rule, a default one included, and a deleted workspace rule set stays empty', async () => {
    const owner = await signUpBusiness(client, { businessName: 'Deleting Co' });
    const rule = await createRule(client, owner.auth, RULE);
    for (const id of [rule.id, 'default-high', 'default-medium']) {
      const reply = await client.request('DELETE', `${RULES}/${id}`, undefined, owner.auth);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data).toEqual({ id });
    }
    expect((await client.request('DELETE', `${RULES}/${rule.id}`, undefined, owner.auth)).status).toBe(404);
    const list = await client.request('GET', RULES, undefined, owner.auth);
    expect(list.body.data).toEqual([]);
  });

  it('lets every role read the rules and only an ADMIN change them', async () => {
    const [engineer, viewer] = await Promise.all([joinAs(client, admin, 'ENGINEER'), joinAs(client, admin, 'VIEWER')]);
    for (const member of [engineer, viewer]) {
      expect((await client.request('GET', RULES, undefined, member.auth)).status).toBe(200);
      const created = await client.request('POST', RULES, RULE, member.auth);
      expect(created.status, created.text).toBe(403);
      expect((await client.request('PUT', `${RULES}/default-high`, { minSignals: 2 }, member.auth)).status).toBe(403);
      expect((await client.request('DELETE', `${RULES}/default-high`, undefined, member.auth)).status).toBe(403);
    }
    expect((await client.request('GET', RULES)).status).toBe(401);
  });

  it('takes an API key with incidents:read for reads and incidents:write for changes', async () => {
    const reader = await apiKeyHeaders(client, admin, ['incidents:read']);
    const writer = await apiKeyHeaders(client, admin, ['incidents:write']);
    expect((await client.request('GET', RULES, undefined, reader)).status).toBe(200);
    expect((await client.request('POST', RULES, RULE, reader)).status).toBe(403);
    expect((await client.request('GET', RULES, undefined, writer)).status).toBe(403);
    const created = await client.request('POST', RULES, RULE, writer);
    expect(created.status, created.text).toBe(201);
  });
});
