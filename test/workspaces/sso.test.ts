import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoDomainClaimKey } from '#lib/workspaces/sso-repository.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

let client: TestClient;
let first: SignedIn;
let second: SignedIn;

const getSso = (who: SignedIn) => client.request('GET', '/api/v1/business/sso', undefined, who.auth);
const putSso = (who: SignedIn, body: unknown) => client.request('PUT', '/api/v1/business/sso', body, who.auth);
const discover = async (email: string) => {
  const reply = await client.request('GET', `/api/v1/auth/sso/discovery?email=${encodeURIComponent(email)}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as { ssoEnabled: boolean; protocol?: string; loginUrl?: string };
};
const settings = (domains: string[], overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  protocol: 'SAML',
  loginUrl: 'https://idp.first.example/saml/sso',
  domains,
  ...overrides,
});

beforeAll(async () => {
  client = await startTestStack();
  first = await signUpBusiness(client, { businessName: 'First SSO' });
  second = await signUpBusiness(client, { businessName: 'Second SSO' });
});

afterAll(async () => {
  await client.stack.stop();
});

describe('SSO settings', () => {
  it('are disabled until configured', async () => {
    const reply = await getSso(first);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ enabled: false, protocol: null, loginUrl: null, domains: [], updatedAt: null });
    expect((await discover('someone@first.example')).ssoEnabled).toBe(false);
  });

  it('round-trip, and discovery then offers SSO for the domains', async () => {
    const reply = await putSso(first, settings(['First.example', 'first.example', 'eu.first.example']));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({
      enabled: true,
      protocol: 'SAML',
      loginUrl: 'https://idp.first.example/saml/sso',
      domains: ['first.example', 'eu.first.example'],
      updatedAt: expect.any(String),
    });
    expect((await getSso(first)).body.data).toEqual(reply.body.data);
    expect(await discover('someone@first.example')).toMatchObject({
      ssoEnabled: true,
      protocol: 'SAML',
      loginUrl: 'https://idp.first.example/saml/sso',
    });
    expect((await discover('someone@elsewhere.example')).ssoEnabled).toBe(false);
  });

  it("answers 409 for another workspace's domain, and frees a domain its owner drops", async () => {
    const taken = await putSso(second, settings(['second.example', 'eu.first.example'], { protocol: 'OIDC' }));
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual(['domains: eu.first.example belongs to another workspace']);
    expect((await getSso(second)).body.data.enabled).toBe(false);

    expect((await putSso(first, settings(['first.example']))).status).toBe(200);
    const moved = await putSso(
      second,
      settings(['second.example', 'eu.first.example'], { protocol: 'OIDC', loginUrl: 'https://login.second.example' }),
    );
    expect(moved.status, moved.text).toBe(200);
    expect(await discover('a@eu.first.example')).toMatchObject({
      ssoEnabled: true,
      loginUrl: 'https://login.second.example',
    });
    expect(await discover('a@first.example')).toMatchObject({ loginUrl: 'https://idp.first.example/saml/sso' });
  });

  it('takes over a stale domain claim that its workspace does not list', async () => {
    const { table } = client.stack.ports;
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: { ...ssoDomainClaimKey('stale.example'), type: 'SSO_DOMAIN_CLAIM', workspaceId: 'GONE' },
      }),
    );
    const reply = await putSso(first, settings(['first.example', 'stale.example']));
    expect(reply.status, reply.text).toBe(200);
    expect((await discover('x@stale.example')).ssoEnabled).toBe(true);
  });

  it('stop discovery when disabled', async () => {
    expect((await putSso(first, settings(['first.example'], { enabled: false }))).status).toBe(200);
    expect((await discover('someone@first.example')).ssoEnabled).toBe(false);
  });

  it('answer 400 for invalid settings', async () => {
    const cases = [
      settings(['first.example'], { loginUrl: 'http://idp.first.example' }),
      settings(['first.example'], { loginUrl: 'not a url' }),
      settings([]),
      settings(Array.from({ length: 21 }, (_, index) => `d${index}.example`)),
      settings(['not a domain']),
      settings(['first.example'], { protocol: 'KERBEROS' }),
      { protocol: 'SAML' },
    ];
    for (const body of cases) {
      const reply = await putSso(first, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('answer 401 without a Bearer token', async () => {
    expect((await client.request('GET', '/api/v1/business/sso')).status).toBe(401);
    expect((await client.request('PUT', '/api/v1/business/sso', settings(['first.example']))).status).toBe(401);
  });
});
