import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import { startFakeIntegrationProviders, type FakeIntegrationProviders } from '../support/fake-integration-providers.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { V1, connect } from './support.ts';

let client: TestClient;
let fakes: FakeIntegrationProviders;
let admin: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  fakes = await startFakeIntegrationProviders();
  client = await startTestStack(':memory:', undefined, { integrationProviders: fakes.providersConfig() });
  admin = await signUpBusiness(client);
  stranger = await signUpBusiness(client, { businessName: 'Globex' });
  await connect(client, admin, 'codehost-a');
  await connect(client, admin, 'codehost-b');
});

afterAll(async () => {
  await client?.stack.stop();
  await fakes?.stop();
});

const keyCount = async (who: SignedIn): Promise<number> =>
  (await client.request('GET', `${V1}/apikey/apikeys`, undefined, who.auth)).body.data.length;

describe('code host webhooks', () => {
  it('creates the code host A hook pointing at ingestion, signed with the secret ingestion checks', async () => {
    const reply = await client.request(
      'POST',
      `${V1}/integrations/codehost-a/webhook`,
      { repoFullName: 'acme/api' },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toMatchObject({
      id: '9001',
      target: 'acme/api',
      events: ['push', 'pull_request', 'deployment_status'],
      deliveryUrl: `${client.stack.url}/api/v1/ingestion/codehost-a`,
    });
    const created = fakes.requests.findLast((request) => request.path === '/codehost-a/api/repos/acme/api/hooks');
    const hookUrl = new URL(created?.body.config.url);
    expect(`${hookUrl.origin}${hookUrl.pathname}`).toBe(`${client.stack.url}/api/v1/ingestion/codehost-a`);
    const secret = created?.body.config.secret as string;
    const secrets = await client.request('GET', `${V1}/ingestion/secrets`, undefined, admin.auth);
    expect(secrets.body.data).toContainEqual(expect.objectContaining({ sender: 'codehost-a', configured: true }));

    // The host's first delivery, exactly as it would send it: the URL with its key, the body signed.
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 9001 });
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const headers = { 'x-github-event': 'ping', 'x-github-delivery': 'd-1', 'x-hub-signature-256': signature };
    const delivered = await client.request('POST', `${hookUrl.pathname}${hookUrl.search}`, body, headers);
    expect(delivered.status, delivered.text).toBe(202);
    const forged = await client.request('POST', `${hookUrl.pathname}${hookUrl.search}`, body, {
      ...headers,
      'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
    });
    expect(forged.status).toBe(401);

    const again = await client.request(
      'POST',
      `${V1}/integrations/codehost-a/webhook`,
      { repoFullName: 'acme/web', events: ['push'] },
      admin.auth,
    );
    expect(again.status).toBe(201);
    const second = fakes.requests.findLast((request) => request.path === '/codehost-a/api/repos/acme/web/hooks');
    expect(second?.body.config.secret).toBe(secret);
  });

  it('creates the code host B hook with the secret as its token', async () => {
    const reply = await client.request(
      'POST',
      `${V1}/integrations/codehost-b/webhook`,
      { projectId: 'acme/api', events: ['push', 'pipeline'] },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    const created = fakes.requests.findLast((request) => request.path === '/codehost-b/api/projects/acme%2Fapi/hooks');
    expect(created?.body).toMatchObject({ push_events: true, pipeline_events: true, enable_ssl_verification: true });
    expect(created?.body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(created?.body.merge_requests_events).toBeUndefined();
  });

  it('leaves nothing behind when the host refuses the hook: 400, and the ingestion key is gone', async () => {
    const keys = await keyCount(admin);
    const refused = await client.request(
      'POST',
      `${V1}/integrations/codehost-a/webhook`,
      { repoFullName: 'acme/missing' },
      admin.auth,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['repoFullName: codehost-a answered 404: Not Found']);
    const missing = await client.request(
      'POST',
      `${V1}/integrations/codehost-b/webhook`,
      { projectId: 404 },
      admin.auth,
    );
    expect(missing.status).toBe(400);
    expect(await keyCount(admin)).toBe(keys);
  });

  it('validates: repository form, event names, a project id; one message per bad field', async () => {
    const bad = await client.request(
      'POST',
      `${V1}/integrations/codehost-a/webhook`,
      { repoFullName: 'nope', events: ['push', 'teleport'] },
      admin.auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveLength(2);
    const empty = await client.request('POST', `${V1}/integrations/codehost-b/webhook`, { events: [] }, admin.auth);
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toHaveLength(2);
  });

  it('answers 409 where the code host is not connected', async () => {
    for (const [path, body] of [
      ['/integrations/codehost-a/webhook', { repoFullName: 'acme/api' }],
      ['/integrations/codehost-b/webhook', { projectId: '7' }],
    ] as const) {
      expect((await client.request('POST', `${V1}${path}`, body, stranger.auth)).status).toBe(409);
    }
    expect((await client.request('GET', `${V1}/integrations/codehost-a/repos`, undefined, stranger.auth)).status).toBe(
      409,
    );
  });

  it('lists repositories and projects for every role and integrations:read keys', async () => {
    const viewer = await joinAs(client, admin, 'VIEWER');
    const repos = await client.request('GET', `${V1}/integrations/codehost-a/repos`, undefined, viewer.auth);
    expect(repos.status, repos.text).toBe(200);
    expect(repos.body.data).toEqual([
      { id: '101', fullName: 'acme/api', defaultBranch: 'main', private: true },
      { id: '102', fullName: 'acme/web', defaultBranch: 'trunk', private: false },
    ]);
    const reader = await apiKeyHeaders(client, admin, ['integrations:read']);
    const projects = await client.request('GET', `${V1}/integrations/codehost-b/projects`, undefined, reader);
    expect(projects.body.data).toEqual([
      { id: '7', name: 'API', pathWithNamespace: 'acme/api', defaultBranch: 'main' },
    ]);
    const wrong = await apiKeyHeaders(client, admin, ['incidents:read']);
    expect((await client.request('GET', `${V1}/integrations/codehost-a/repos`, undefined, wrong)).status).toBe(403);
    const engineer = await joinAs(client, admin, 'ENGINEER');
    expect(
      (
        await client.request(
          'POST',
          `${V1}/integrations/codehost-a/webhook`,
          { repoFullName: 'acme/api' },
          engineer.auth,
        )
      ).status,
    ).toBe(403);
  });
});

describe('chat webhook', () => {
  it('registers after a test message went through; the URL is never answered', async () => {
    const reply = await client.request(
      'POST',
      `${V1}/integrations/chat/webhook`,
      { webhookUrl: fakes.webhookUrl('team'), channel: '#ops' },
      admin.auth,
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toMatchObject({
      type: 'CHAT',
      integrationType: 'chat',
      channel: '#ops',
      webhookHost: new URL(fakes.url).host,
    });
    expect(fakes.chatMessages('team')).toEqual([{ text: expect.stringContaining('(#ops)') }]);
    const listed = await client.request('GET', `${V1}/integrations/${admin.user.id}`, undefined, admin.auth);
    expect(JSON.stringify(listed.body.data)).not.toContain('/hooks/team');
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ type: 'CHAT', integrationType: 'chat', channel: '#ops', status: 'ACTIVE' }),
    );
  });

  it('refuses a URL that refuses the test message, plain http off this machine, and what is no URL', async () => {
    const refused = await client.request(
      'POST',
      `${V1}/integrations/chat/webhook`,
      { webhookUrl: fakes.webhookUrl('refuse') },
      stranger.auth,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['webhookUrl: the webhook answered 404']);
    const plain = await client.request(
      'POST',
      `${V1}/integrations/chat/webhook`,
      { webhookUrl: 'http://hooks.example.com/x' },
      stranger.auth,
    );
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual(['webhookUrl: must be an https URL']);
    for (const internal of [
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.5/hook',
      'https://[fd00::1]/x',
    ]) {
      const inside = await client.request(
        'POST',
        `${V1}/integrations/chat/webhook`,
        { webhookUrl: internal },
        stranger.auth,
      );
      expect(inside.status, internal).toBe(400);
      expect(inside.body.errors[0]).toMatch(/^webhookUrl: resolves to an internal address/);
    }
    const junk = await client.request(
      'POST',
      `${V1}/integrations/chat/webhook`,
      { webhookUrl: 'not a url', channel: '' },
      stranger.auth,
    );
    expect(junk.status).toBe(400);
    expect(junk.body.errors).toHaveLength(2);
    const list = await client.request('GET', `${V1}/integrations/${stranger.user.id}`, undefined, stranger.auth);
    expect(list.body.data).toEqual([]);
  });
});

describe('SMS and messaging app', () => {
  it('connects E.164 numbers and refuses anything else', async () => {
    const sms = await client.request(
      'POST',
      `${V1}/integrations/sms/connect`,
      { phoneNumber: '+442071838750', provider: 'sns' },
      admin.auth,
    );
    expect(sms.status, sms.text).toBe(201);
    expect(sms.body.data).toMatchObject({
      type: 'SMS',
      integrationType: 'sms',
      phoneNumber: '+442071838750',
      provider: 'sns',
      status: 'ACTIVE',
    });
    const app = await client.request(
      'POST',
      `${V1}/integrations/messaging-app/connect`,
      { phoneNumber: '+14155550100' },
      admin.auth,
    );
    expect(app.status).toBe(201);
    expect(app.body.data).toMatchObject({ type: 'MESSAGING_APP', integrationType: 'messaging-app' });
    for (const phoneNumber of ['020 7183 8750', '+0123456', '+1234567890123456', 14155550100]) {
      const bad = await client.request('POST', `${V1}/integrations/sms/connect`, { phoneNumber }, admin.auth);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveLength(1);
    }
    expect((await client.request('POST', `${V1}/integrations/messaging-app/connect`, {}, admin.auth)).status).toBe(400);
  });

  it("lists a member's integrations in the caller's workspace only", async () => {
    const engineer = await joinAs(client, admin, 'ENGINEER');
    const mine = await client.request('GET', `${V1}/integrations/${admin.user.id}`, undefined, engineer.auth);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map(({ integrationType }: { integrationType: string }) => integrationType)).toEqual(
      expect.arrayContaining(['codehost-a', 'codehost-b', 'sms', 'messaging-app']),
    );
    expect(mine.body.data.map(({ type }: { type: string }) => type)).toEqual(
      expect.arrayContaining(['CODE_HOST_A', 'CODE_HOST_B', 'SMS', 'MESSAGING_APP']),
    );
    expect((await client.request('GET', `${V1}/integrations/${stranger.user.id}`, undefined, admin.auth)).status).toBe(
      404,
    );
    expect((await client.request('GET', `${V1}/integrations/${admin.user.id}`, undefined, stranger.auth)).status).toBe(
      404,
    );
    expect(
      (await client.request('GET', `${V1}/integrations/${engineer.user.id}`, undefined, admin.auth)).body.data,
    ).toEqual([]);
  });
});

describe('roles and credentials', () => {
  const ADMIN_ROUTES: [string, string, unknown][] = [
    ['POST', '/integrations/chat/webhook', { webhookUrl: 'https://hooks.example.com/x' }],
    ['POST', '/integrations/codehost-a/webhook', { repoFullName: 'acme/api' }],
    ['POST', '/integrations/codehost-b/webhook', { projectId: '7' }],
    ['POST', '/integrations/videomeet/connect', undefined],
    ['GET', '/integrations/codehost-b/callback?code=c&state=s', undefined],
    ['POST', '/integrations/sms/connect', { phoneNumber: '+14155550100' }],
    ['POST', '/integrations/messaging-app/connect', { phoneNumber: '+14155550100' }],
  ];

  it('lets only an ADMIN with a Bearer token connect, register or disconnect; a key gets 401', async () => {
    const engineer = await joinAs(client, admin, 'ENGINEER');
    const viewer = await joinAs(client, admin, 'VIEWER');
    const key = await apiKeyHeaders(client, admin, ['integrations:read', 'integrations:write']);
    const routes: [string, string, unknown][] = [
      ...ADMIN_ROUTES,
      ['DELETE', `/integrations/${admin.user.id}/sms`, undefined],
    ];
    for (const [method, path, body] of routes) {
      for (const who of [engineer, viewer]) {
        expect((await client.request(method, `${V1}${path}`, body, who.auth)).status, `${method} ${path}`).toBe(403);
      }
      expect((await client.request(method, `${V1}${path}`, body, key)).status, `${method} ${path}`).toBe(401);
    }
    expect((await client.request('GET', `${V1}/integrations/${admin.user.id}`, undefined, key)).status).toBe(200);
  });
});
