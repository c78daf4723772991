import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { confirmationMailsTo } from '../support/outside-addresses.ts';
import { create, type PolicyTeam, policyTeam, V1, weeklySchedule } from './policy-support.ts';

/** The escalation-policy routes (docs/on-call.md): validation, scoping, roles, and the service map's link to them. */
const POLICIES = `${V1}/escalation-policies`;

let client: TestClient;
let team: PolicyTeam;
let other: SignedIn;
let schedule: Record<string, any>;

beforeAll(async () => {
  client = await startTestStack();
  [team, other] = await Promise.all([
    policyTeam(client, 'Policies Co'),
    signUpBusiness(client, { businessName: 'Else' }),
  ]);
  schedule = await weeklySchedule(client, team.admin, [team.a, team.b]);
});
afterAll(() => client?.stack.stop());

const body = () => ({
  name: 'Checkout',
  levels: [
    { delayMinutes: 0, targets: [{ type: 'schedule', id: schedule.id }] },
    {
      delayMinutes: 10,
      targets: [
        { type: 'member', id: team.c.user.id },
        { type: 'email', address: ' Lead@X.io ' },
      ],
    },
  ],
  repeat: 2,
  ackTimeoutMinutes: 30,
});

describe('escalation policies through HTTP', () => {
  it('creates, reads, lists, replaces and deletes a policy', async () => {
    const made = await create(client, team.admin, '/escalation-policies', body());
    expect(await confirmationMailsTo(client, 'lead@x.io')).toHaveLength(1);
    const engineers = await client.request('POST', POLICIES, body(), team.a.auth);
    expect(engineers.status, engineers.text).toBe(403);
    expect(engineers.body.errors).toEqual([
      'levels.1.targets.1.address: not the address of a member of this workspace',
    ]);
    expect(made).toMatchObject({ ...body(), levels: expect.any(Array), id: expect.any(String) });
    expect(made.levels[1].targets[1]).toEqual({ type: 'email', address: 'lead@x.io' });
    const got = await client.request('GET', `${POLICIES}/${made.id}`, undefined, team.viewer.auth);
    expect(got.body.data).toEqual(made);
    const listed = await client.request('GET', POLICIES, undefined, team.viewer.auth);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(made.id);

    const { repeat: _repeat, ackTimeoutMinutes: _timeout, ...lean } = body();
    const replaced = await client.request('PUT', `${POLICIES}/${made.id}`, { ...lean, name: 'Lean' }, team.admin.auth);
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data).toMatchObject({ id: made.id, name: 'Lean', repeat: 0, createdAt: made.createdAt });
    expect(replaced.body.data.ackTimeoutMinutes).toBeUndefined();

    expect((await client.request('DELETE', `${POLICIES}/${made.id}`, undefined, team.admin.auth)).status).toBe(200);
    expect((await client.request('GET', `${POLICIES}/${made.id}`, undefined, team.admin.auth)).status).toBe(404);
    expect((await client.request('DELETE', `${POLICIES}/${made.id}`, undefined, team.admin.auth)).status).toBe(404);
  });

  it.each([
    ['no levels', { levels: [] }, 'levels: must hold at least one level'],
    [
      'a level without targets',
      { levels: [{ delayMinutes: 0, targets: [] }] },
      'levels.0.targets: must name at least one target',
    ],
    ['repeat 6', { repeat: 6 }, 'repeat: must be 0 to 5'],
    [
      'a negative delay',
      { levels: [{ delayMinutes: -1, targets: [{ type: 'email', address: 'a@b.io' }] }] },
      'levels.0.delayMinutes: must be 0 to 1440',
    ],
    ['an ack timeout of 0', { ackTimeoutMinutes: 0 }, 'ackTimeoutMinutes: must be 1 to 10080'],
    [
      'an address that is not one',
      { levels: [{ delayMinutes: 0, targets: [{ type: 'email', address: 'nobody' }] }] },
      'levels.0.targets.0.address: must be a valid e-mail address',
    ],
  ])('refuses %s with a 400 naming the field', async (_what, change, message) => {
    const reply = await client.request('POST', POLICIES, { ...body(), ...change }, team.admin.auth);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toContain(message);
  });

  it('refuses members and schedules of no member or another workspace, naming each', async () => {
    const foreign = await weeklySchedule(client, other, [other]);
    const levels = [
      {
        delayMinutes: 0,
        targets: [
          { type: 'schedule', id: foreign.id },
          { type: 'member', id: other.user.id },
        ],
      },
    ];
    const reply = await client.request('POST', POLICIES, { ...body(), levels }, team.admin.auth);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual([
      `levels.0.targets.0.id: no schedule ${foreign.id} in this workspace`,
      `levels.0.targets.1.id: no member ${other.user.id} in this workspace`,
    ]);
  });

  it('keeps policies to their workspace and writes to ENGINEERs and ADMINs', async () => {
    const made = await create(client, team.admin, '/escalation-policies', body());
    expect((await client.request('GET', `${POLICIES}/${made.id}`, undefined, other.auth)).status).toBe(404);
    expect((await client.request('DELETE', `${POLICIES}/${made.id}`, undefined, other.auth)).status).toBe(404);
    expect((await client.request('GET', POLICIES, undefined, other.auth)).body.data).toEqual([]);
    expect((await client.request('POST', POLICIES, body(), team.viewer.auth)).status).toBe(403);
    expect((await client.request('PUT', `${POLICIES}/${made.id}`, body(), team.viewer.auth)).status).toBe(403);
  });
});

describe("the service map's escalationPolicyId", () => {
  it('names a policy of the workspace, is cleared with null, and refuses one it does not have', async () => {
    const policy = await create(client, team.admin, '/escalation-policies', body());
    const service = await create(client, team.admin, '/service-map', { name: 'cart', escalationPolicyId: policy.id });
    expect(service.escalationPolicyId).toBe(policy.id);
    const plain = await create(client, team.admin, '/service-map', { name: 'wishlist' });
    expect(plain.escalationPolicyId).toBeNull();

    const unknown = await client.request(
      'PATCH',
      `${V1}/service-map/${service.id}`,
      { escalationPolicyId: 'nope' },
      team.admin.auth,
    );
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.errors).toEqual(['escalationPolicyId: no escalation policy nope in this workspace']);
    const foreign = await client.request(
      'POST',
      `${V1}/service-map`,
      { name: 'x', escalationPolicyId: policy.id },
      other.auth,
    );
    expect(foreign.status).toBe(400);

    const cleared = await client.request(
      'PATCH',
      `${V1}/service-map/${service.id}`,
      { escalationPolicyId: null },
      team.admin.auth,
    );
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.escalationPolicyId).toBeNull();
  });
});
