import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoDomainClaimKey } from '#lib/workspaces/sso-repository.ts';
import { signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { FakeNetwork } from '../support/fake-network.ts';
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

/** Publishes `who`'s proof for each domain in the fake DNS, beside any record there already. */
const prove = async (who: SignedIn, ...domains: string[]) => {
  const { txtRecordName, txtRecordValue } = (await getSso(who)).body.data.domainVerification;
  const { txt } = client.stack.ports.network as FakeNetwork;
  for (const domain of domains) {
    const name = txtRecordName.replace('<domain>', domain);
    txt.set(name, [...(txt.get(name) ?? []), txtRecordValue]);
  }
};

beforeAll(async () => {
  client = await startTestStack();
  first = await signUpBusiness(client, { businessName: 'First SSO' });
  second = await signUpBusiness(client, { businessName: 'Second SSO' });
  await prove(first, 'first.example', 'eu.first.example', 'stale.example');
  await prove(second, 'second.example', 'eu.first.example');
});

afterAll(async () => {
  await client.stack.stop();
});

describe('SSO settings', () => {
  it('are disabled until configured', async () => {
    const reply = await getSso(first);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      enabled: false,
      protocol: null,
      loginUrl: null,
      domains: [],
      updatedAt: null,
      domainVerification: {
        txtRecordName: '_incident-service-sso.<domain>',
        txtRecordValue: expect.stringMatching(/^incident-service-sso=[\w-]{32}$/),
      },
    });
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
      domainVerification: (await getSso(first)).body.data.domainVerification,
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

  it('refuse public mail domains and unproven domains (issue 27, finding 3); discovery answers neither', async () => {
    const squatter = await signUpBusiness(client, { businessName: 'Evil Corp' });
    const gmail = await putSso(
      squatter,
      settings(['gmail.com'], { loginUrl: 'https://evil.example/sso', protocol: 'SAML' }),
    );
    expect(gmail.status).toBe(400);
    expect(gmail.body.errors).toEqual([expect.stringMatching(/^domains\.0: is a public mail domain/)]);
    const unproven = await putSso(
      squatter,
      settings(['victim-corp.example'], { loginUrl: 'https://evil.example/sso' }),
    );
    expect(unproven.status).toBe(400);
    expect(unproven.body.errors).toEqual([
      expect.stringMatching(
        /^domains: victim-corp\.example publishes no TXT record _incident-service-sso\.victim-corp\.example/,
      ),
    ]);
    expect((await getSso(squatter)).body.data.enabled).toBe(false);
    for (const email of ['someone@gmail.com', 'ceo@victim-corp.example']) {
      expect((await discover(email)).ssoEnabled, email).toBe(false);
    }
    // Another workspace's token proves nothing: the record must carry the claimant's own.
    await prove(first, 'victim-corp.example');
    expect((await putSso(squatter, settings(['victim-corp.example']))).status).toBe(400);
  });

  it('lets the proven owner take a domain over from a claim made before proofs, or whose proof is gone', async () => {
    const owner = await signUpBusiness(client, { businessName: 'Real Owner' });
    const { table } = client.stack.ports;
    await table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: { ...ssoDomainClaimKey('owned.example'), type: 'SSO_DOMAIN_CLAIM', workspaceId: first.user.businessId },
      }),
    );
    expect((await putSso(first, settings(['first.example', 'owned.example']))).status).toBe(400);
    expect((await discover('x@owned.example')).ssoEnabled).toBe(false);
    await prove(owner, 'owned.example');
    const taken = await putSso(owner, settings(['owned.example'], { loginUrl: 'https://idp.owned.example/sso' }));
    expect(taken.status, taken.text).toBe(200);
    expect(await discover('x@owned.example')).toMatchObject({ loginUrl: 'https://idp.owned.example/sso' });

    // A domain that changed hands: the old owner's record is gone, so its claim no longer stands.
    await prove(second, 'sold.example');
    expect((await putSso(second, settings(['second.example', 'sold.example']))).status).toBe(200);
    await prove(owner, 'sold.example');
    expect((await putSso(owner, settings(['owned.example', 'sold.example']))).status).toBe(409);
    const { txt } = client.stack.ports.network as FakeNetwork;
    const secondsRecord = (await getSso(second)).body.data.domainVerification.txtRecordValue;
    txt.set(
      '_incident-service-sso.sold.example',
      (txt.get('_incident-service-sso.sold.example') ?? []).filter((value) => value !== secondsRecord),
    );
    const bought = await putSso(owner, settings(['owned.example', 'sold.example']));
    expect(bought.status, bought.text).toBe(200);
    expect(await discover('x@sold.example')).toMatchObject({ loginUrl: 'https://idp.first.example/saml/sso' });
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
