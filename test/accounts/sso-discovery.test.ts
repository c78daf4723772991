import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoDomainClaimKey, ssoSettingsKey } from '#lib/workspaces/sso-repository.ts';
import { startTestStack } from '../support/local-stack.ts';

const client = await startTestStack();
afterAll(() => client.stack.stop());

const discover = (email: string) =>
  client.request('GET', `/api/v1/auth/sso/discovery?email=${encodeURIComponent(email)}`);

/** SSO is configured by the business group; here its two items are written directly. */
const configureSso = async (workspaceId: string, domain: string, enabled: boolean, proved = true) => {
  const { table } = client.stack.ports;
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: {
        ...ssoSettingsKey(workspaceId),
        type: 'SSO_SETTINGS',
        workspaceId,
        enabled,
        protocol: 'OIDC',
        loginUrl: `https://idp.${domain}/authorize`,
        domains: [domain],
        updatedAt: new Date().toISOString(),
      },
    }),
  );
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...ssoDomainClaimKey(domain), workspaceId, ...(proved && { verifiedAt: new Date().toISOString() }) },
    }),
  );
};

beforeAll(async () => {
  await configureSso('01SSOWORKSPACE00000000000A', 'sso-corp.example', true);
  await configureSso('01SSOWORKSPACE00000000000B', 'sso-off.example', false);
  await configureSso('01SSOWORKSPACE00000000000C', 'unproven.example', true, false);
});

describe('GET /auth/sso/discovery', () => {
  it('gives the protocol and login URL when a workspace signs in the domain', async () => {
    const reply = await discover('Alice@SSO-Corp.example');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      email: 'alice@sso-corp.example',
      ssoEnabled: true,
      protocol: 'OIDC',
      loginUrl: 'https://idp.sso-corp.example/authorize',
    });
  });

  it('says no SSO for a domain nobody configured, a disabled configuration and a domain never proved', async () => {
    for (const email of ['bob@elsewhere.example', 'carol@sso-off.example', 'dave@unproven.example']) {
      const reply = await discover(email);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual({ email, ssoEnabled: false });
    }
  });

  it('requires a valid address', async () => {
    const bad = await discover('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.stringMatching(/^email: /)]);
    expect((await client.request('GET', '/api/v1/auth/sso/discovery')).status).toBe(400);
  });
});
