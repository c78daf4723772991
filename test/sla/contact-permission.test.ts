import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { HIGH_PAYMENTS_POLICY } from './support.ts';

const POLICIES = '/api/v1/sla-policies';
let client: TestClient;
let admin: SignedIn;
let engineer: SignedIn;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Relay' });
  engineer = await joinAs(client, admin, 'ENGINEER');
});

afterAll(async () => {
  await client?.stack.stop();
});

const create = (auth: Record<string, string>, escalationContact: string) =>
  client.request('POST', POLICIES, { ...HIGH_PAYMENTS_POLICY, escalationContact }, auth);

describe('who an escalation contact may be', () => {
  it('an ENGINEER or a write key naming an outside address gets a 403 and nothing is written', async () => {
    const key = await apiKeyHeaders(client, admin, ['incidents:write']);
    for (const auth of [engineer.auth, key]) {
      const refused = await create(auth, 'stranger@elsewhere.example');
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.errors).toEqual([expect.stringMatching(/^escalationContact: /)]);
    }
    const listed = await client.request('GET', POLICIES, undefined, admin.auth);
    expect(JSON.stringify(listed.body.data)).not.toContain('stranger@elsewhere.example');
  });

  it('an ENGINEER may name a member by id or address, or a tier; an ADMIN an outside address', async () => {
    for (const contact of [admin.user.id, admin.email.toUpperCase(), 'tier-2']) {
      const reply = await create(engineer.auth, contact);
      expect(reply.status, reply.text).toBe(201);
    }
    const created = await create(engineer.auth, 'tier-2');
    const replaced = await client.request(
      'PUT',
      `${POLICIES}/${created.body.data.id}`,
      { ...HIGH_PAYMENTS_POLICY, escalationContact: 'stranger@elsewhere.example' },
      engineer.auth,
    );
    expect(replaced.status, replaced.text).toBe(403);
    expect((await create(admin.auth, 'partner@elsewhere.example')).status).toBe(201);
  });
});
