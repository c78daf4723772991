import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBusiness, uniqueEmail, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { joinByInvitation } from './support.ts';
import { publishSsoProof } from '../support/fake-network.ts';

let client: TestClient;
let admin: SignedIn;
const joined: Partial<Record<'ADMIN' | 'ENGINEER' | 'VIEWER', SignedIn>> = {};

/** Requests that administer the workspace, with valid bodies, so only the role decides. */
const administration = () =>
  [
    ['POST', '/api/v1/business/send-invite', { email: uniqueEmail('x'), role: 'VIEWER', accessPermissions: [] }],
    ['POST', '/api/v1/ims/setup', { alertEmail: 'ops@example.com', timezone: 'UTC' }],
    ['PUT', '/api/v1/ims/config', { slaEnabled: true }],
    ['PUT', '/api/v1/business/setup', { businessName: 'Taken Over' }],
    [
      'PUT',
      '/api/v1/business/sso',
      { enabled: true, protocol: 'OIDC', loginUrl: 'https://idp.example.com', domains: ['roles.example'] },
    ],
  ] as const;

const reads = ['/api/v1/business/get_members', '/api/v1/ims/config', '/api/v1/business/sso'] as const;

beforeAll(async () => {
  client = await startTestStack();
  admin = await signUpBusiness(client, { businessName: 'Role Matrix' });
  publishSsoProof(client.stack.ports.network, admin.user.businessId as string, 'roles.example');
  const ims = await client.request(
    'POST',
    '/api/v1/ims/setup',
    { alertEmail: 'ops@example.com', timezone: 'UTC' },
    admin.auth,
  );
  expect(ims.status, ims.text).toBe(201);
  for (const role of ['ADMIN', 'ENGINEER', 'VIEWER'] as const)
    joined[role] = await joinByInvitation(client, admin, role);
});

afterAll(async () => {
  await client.stack.stop();
});

describe('roles in the business group', () => {
  it.each(['ENGINEER', 'VIEWER'] as const)('refuses workspace administration to an invited %s (403)', async (role) => {
    const member = joined[role] as SignedIn;
    for (const [method, path, body] of administration()) {
      const reply = await client.request(method, path, body, member.auth);
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body.errors).toEqual(['role: one of ADMIN is required']);
    }
  });

  it.each(['ADMIN', 'ENGINEER', 'VIEWER'] as const)(
    'lets an invited %s read members, IMS and SSO settings',
    async (role) => {
      const member = joined[role] as SignedIn;
      for (const path of reads) {
        const reply = await client.request('GET', path, undefined, member.auth);
        expect(reply.status, path).toBe(200);
      }
    },
  );

  it('lets an ADMIN who joined by invitation administer the workspace', async () => {
    const member = joined.ADMIN as SignedIn;
    const statuses = [];
    for (const [method, path, body] of administration()) {
      statuses.push((await client.request(method, path, body, member.auth)).status);
    }
    // IMS setup was done already (409); the rest succeed.
    expect(statuses).toEqual([201, 409, 200, 200, 200]);
  });
});
