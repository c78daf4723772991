import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { V1, OAUTH_ROUTES, callback, connect, startConnect, type OAuthKind } from './support.ts';

/** The spec's `type` of each integration (Resources, Integration). */
const SPEC_TYPES: Record<OAuthKind, string> = {
  chat: 'CHAT',
  'codehost-a': 'CODE_HOST_A',
  'codehost-b': 'CODE_HOST_B',
  videomeet: 'VIDEO_MEET',
};

let client: TestClient;
let fakes: FakeIntegrationProviders;
let admin: SignedIn;
let otherAdmin: SignedIn;

beforeAll(async () => {
  fakes = await startFakeIntegrationProviders();
  client = await startTestStack(':memory:', undefined, { integrationProviders: fakes.providersConfig() });
  admin = await signUpBusiness(client);
  otherAdmin = await signUpBusiness(client, { businessName: 'Globex' });
});

afterAll(async () => {
  await client?.stack.stop();
  await fakes?.stop();
});

const integrationsOf = async (who: SignedIn, userId = who.user.id) => {
  const reply = await client.request('GET', `${V1}/integrations/${userId}`, undefined, who.auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as { integrationType: string; status: string; statusReason: string | null }[];
};

describe('OAuth connect and callback', () => {
  it.each(Object.keys(OAUTH_ROUTES) as OAuthKind[])(
    '%s: the authorization URL, then an ACTIVE integration',
    async (kind) => {
      const reply = await client.request('POST', `${V1}${OAUTH_ROUTES[kind].connect}`, undefined, admin.auth);
      expect(reply.status).toBe(200);
      const authUrl = new URL(reply.body.data.authUrl);
      expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${fakes.url}/${kind}/oauth/authorize`);
      expect(authUrl.searchParams.get('client_id')).toBe(`${kind}-client`);
      expect(authUrl.searchParams.get('response_type')).toBe('code');
      expect(authUrl.searchParams.get('redirect_uri')).toBe(`${client.stack.url}${V1}${OAUTH_ROUTES[kind].callback}`);
      const done = await callback(client, admin, kind, authUrl.searchParams.get('state') ?? '');
      expect(done.status, done.text).toBe(200);
      expect(done.body.data).toMatchObject({ integrationType: kind, status: 'ACTIVE', userId: admin.user.id });
      expect(done.body.data.type).toBe(SPEC_TYPES[kind]);
      const exchange = fakes.requests.findLast((request) => request.path === `/${kind}/oauth/token`);
      expect(exchange?.body).toMatchObject({ grant_type: 'authorization_code', code: 'a-good-code' });
      expect(await integrationsOf(admin)).toContainEqual(
        expect.objectContaining({ integrationType: kind, status: 'ACTIVE' }),
      );
    },
  );

  it('keeps tokens only sealed: the stored item holds neither the access nor the refresh token', async () => {
    await connect(client, admin, 'codehost-a');
    const items = await client.stack.ports.table.doc.send(
      new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
        TableName: client.stack.ports.table.name,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${admin.user.businessId}#INTEGRATION` },
      }),
    );
    const stored = JSON.stringify(items.Items);
    expect(stored).toContain('"credentials":"v1.');
    for (const token of fakes.issuedAccessTokens()) expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/rt_[0-9a-f]{24}/);
  });

  it('refuses a replayed state: each works once', async () => {
    const state = await startConnect(client, admin, 'chat');
    expect((await callback(client, admin, 'chat', state)).status).toBe(200);
    const replay = await callback(client, admin, 'chat', state);
    expect(replay.status).toBe(400);
    expect(replay.body.errors).toEqual(['state: was used already']);
  });

  it('refuses a forged or altered state, and one issued for another provider', async () => {
    const state = await startConnect(client, admin, 'chat');
    const [payload, kid, mac] = state.split('.');
    const altered = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...altered, userId: 'someone' })).toString('base64url')}.${kid}.${mac}`;
    for (const bad of [forged, 'not-a-state', `${payload}.${kid}.${'A'.repeat(43)}`]) {
      const reply = await callback(client, admin, 'chat', bad);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0]).toMatch(/^state: /);
    }
    const elsewhere = await callback(client, admin, 'videomeet', state);
    expect(elsewhere.status).toBe(400);
    expect((await callback(client, admin, 'chat', state)).status).toBe(200);
  });

  it("refuses another user's state, in the same workspace or another", async () => {
    const secondAdmin = await joinAs(client, admin, 'ADMIN');
    const state = await startConnect(client, admin, 'videomeet');
    for (const stranger of [secondAdmin, otherAdmin]) {
      const reply = await callback(client, stranger, 'videomeet', state);
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual(['state: was issued to another user']);
    }
    expect((await callback(client, admin, 'videomeet', state)).status).toBe(200);
  });

  it('records a refused code as ERROR with the reason, and answers 400', async () => {
    const engineerWorkspace = await signUpBusiness(client, { businessName: 'Initech' });
    const state = await startConnect(client, engineerWorkspace, 'codehost-b');
    const reply = await callback(client, engineerWorkspace, 'codehost-b', state, 'refuse-me');
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual(['code: invalid_grant: The code is not valid']);
    expect(await integrationsOf(engineerWorkspace)).toEqual([
      expect.objectContaining({
        integrationType: 'codehost-b',
        status: 'ERROR',
        statusReason: 'token exchange refused: invalid_grant: The code is not valid',
      }),
    ]);
  });

  it('validates the callback query: code and state are required', async () => {
    const reply = await client.request('GET', `${V1}${OAUTH_ROUTES.chat.callback}`, undefined, admin.auth);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toHaveLength(2);
  });

  it('lets only an ADMIN with a Bearer token connect', async () => {
    const engineer = await joinAs(client, admin, 'ENGINEER');
    const viewer = await joinAs(client, admin, 'VIEWER');
    for (const who of [engineer, viewer]) {
      expect((await client.request('POST', `${V1}${OAUTH_ROUTES.chat.connect}`, undefined, who.auth)).status).toBe(403);
    }
    const key = await apiKeyHeaders(client, admin, ['integrations:write', 'integrations:read']);
    expect((await client.request('POST', `${V1}${OAUTH_ROUTES.chat.connect}`, undefined, key)).status).toBe(401);
  });
});

describe('token refresh and disconnect', () => {
  it('refreshes an expired access token before using it, and keeps the new one', async () => {
    const owner = await signUpBusiness(client, { businessName: 'Refreshing' });
    fakes.setTokenLifetime(30);
    await connect(client, owner, 'codehost-a');
    fakes.setTokenLifetime(3600);
    const before = fakes.requests.length;
    const repos = await client.request('GET', `${V1}/integrations/codehost-a/repos`, undefined, owner.auth);
    expect(repos.status, repos.text).toBe(200);
    const refresh = fakes.requests.slice(before).find((request) => request.path === '/codehost-a/oauth/token');
    expect(refresh?.body).toMatchObject({ grant_type: 'refresh_token' });
    const again = fakes.requests.length;
    expect((await client.request('GET', `${V1}/integrations/codehost-a/repos`, undefined, owner.auth)).status).toBe(
      200,
    );
    expect(fakes.requests.slice(again).map((request) => request.path)).toEqual(['/codehost-a/api/user/repos']);
  });

  it('puts a connection whose token the provider no longer accepts in ERROR (409)', async () => {
    const owner = await signUpBusiness(client, { businessName: 'Revoked' });
    await connect(client, owner, 'codehost-b');
    fakes.revokeAccessTokens();
    const reply = await client.request('GET', `${V1}/integrations/codehost-b/projects`, undefined, owner.auth);
    expect(reply.status).toBe(409);
    expect(await integrationsOf(owner)).toEqual([
      expect.objectContaining({ status: 'ERROR', statusReason: 'the provider no longer accepts the access token' }),
    ]);
  });

  it('disconnects: DISCONNECTED, credentials gone, the provider no longer used; 404 for what is not there', async () => {
    const owner = await signUpBusiness(client, { businessName: 'Leaving' });
    await connect(client, owner, 'codehost-a');
    const reply = await client.request(
      'DELETE',
      `${V1}/integrations/${owner.user.id}/codehost-a`,
      undefined,
      owner.auth,
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({ integrationType: 'codehost-a', status: 'DISCONNECTED' });
    expect((await client.request('GET', `${V1}/integrations/codehost-a/repos`, undefined, owner.auth)).status).toBe(
      409,
    );
    expect(
      (await client.request('DELETE', `${V1}/integrations/${owner.user.id}/videomeet`, undefined, owner.auth)).status,
    ).toBe(404);
    expect(
      (await client.request('DELETE', `${V1}/integrations/${admin.user.id}/chat`, undefined, owner.auth)).status,
    ).toBe(404);
    expect(
      (await client.request('DELETE', `${V1}/integrations/${owner.user.id}/fax`, undefined, owner.auth)).status,
    ).toBe(400);
  });
});
