import { joinAs } from '../support/accounts.ts';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, loadFixture, type Fixture } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import type { HttpReply } from '../support/local-stack.ts';
import { SECRETS, createTenant, expectAccepted, hmacHex, listSignals, postRaw, type Tenant } from './support.ts';

const SECRET = 'a-webhook-secret-of-some-length';

/** Each signing sender: a real payload, and its signature header for a raw body and a secret. */
const SENDERS = {
  'codehost-a': {
    fixture: () => loadFixture('codehost-a', 'push.0.json'),
    sign: (raw: string, secret: string) => ({ 'x-hub-signature-256': `sha256=${hmacHex(secret, raw)}` }),
    header: 'x-hub-signature-256',
    signsBody: true,
  },
  'codehost-b': {
    fixture: () => loadFixture('codehost-b', 'push.json'),
    sign: (_raw: string, secret: string) => ({ 'x-gitlab-token': secret }),
    header: 'x-gitlab-token',
    // A shared token, not a signature: it proves the sender, not the body.
    signsBody: false,
  },
  'codehost-c': {
    fixture: () => loadFixture('codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json'),
    sign: (raw: string, secret: string) => ({ 'circleci-signature': `v1=${hmacHex(secret, raw)}` }),
    header: 'circleci-signature',
    signsBody: true,
  },
  paging: {
    fixture: () => loadFixture('paging', 'triggered_v3.json'),
    sign: (raw: string, secret: string) => ({ 'x-pagerduty-signature': `v1=${hmacHex(secret, raw)}` }),
    header: 'x-pagerduty-signature',
    signsBody: true,
  },
} as const;

type Sender = keyof typeof SENDERS;

/** The fixture's request without any signature of its own, so each test decides what is sent. */
const unsigned = (fixture: Fixture): Record<string, string> => {
  const headers = { ...fixture.headers };
  for (const { header } of Object.values(SENDERS)) delete headers[header];
  return headers;
};

describe('webhook signatures', () => {
  let client: TestClient;
  let tenant: Tenant;
  let other: Tenant;

  const post = (
    tenantOf: Tenant,
    sender: Sender,
    fixture: Fixture,
    signature: Record<string, string>,
  ): Promise<HttpReply> =>
    postRaw(client, sender, fixture.raw, { ...unsigned(fixture), ...signature }, { headers: tenantOf.keyHeaders });

  const setSecret = (sender: string, secret: string, auth: Record<string, string> = tenant.admin.auth) =>
    client.request('PUT', `${SECRETS}/${sender}`, { secret }, auth);

  beforeAll(async () => {
    client = await startTestStack();
    [tenant, other] = await Promise.all([createTenant(client), createTenant(client, 'Other Co')]);
  });

  afterAll(() => client.stack.stop());

  it('checks nothing while no secret is set', async () => {
    for (const sender of Object.keys(SENDERS) as Sender[]) {
      expectAccepted(await post(tenant, sender, SENDERS[sender].fixture(), {}));
    }
  });

  it('lists every signing sender without a secret at first', async () => {
    const reply = await client.request('GET', SECRETS, undefined, tenant.admin.auth);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual([
      {
        sender: 'codehost-a',
        signatureHeader: 'x-hub-signature-256',
        configured: false,
        setAt: null,
        previousValidUntil: null,
      },
      {
        sender: 'codehost-b',
        signatureHeader: 'x-gitlab-token',
        configured: false,
        setAt: null,
        previousValidUntil: null,
      },
      {
        sender: 'codehost-c',
        signatureHeader: 'circleci-signature',
        configured: false,
        setAt: null,
        previousValidUntil: null,
      },
      {
        sender: 'paging',
        signatureHeader: 'x-pagerduty-signature',
        configured: false,
        setAt: null,
        previousValidUntil: null,
      },
    ]);
  });

  it('sets a secret per sender, and never shows it', async () => {
    for (const sender of Object.keys(SENDERS)) {
      const reply = await setSecret(sender, SECRET);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data).toMatchObject({
        sender,
        configured: true,
        setAt: expect.any(String),
        previousValidUntil: null,
      });
      expect(reply.text).not.toContain(SECRET);
    }
    const listed = await client.request('GET', SECRETS, undefined, tenant.admin.auth);
    expect(listed.body.data.every(({ configured }: { configured: boolean }) => configured)).toBe(true);
    expect(listed.text).not.toContain(SECRET);
  });

  describe.each(Object.keys(SENDERS) as Sender[])('%s with a secret set', (sender) => {
    const { fixture, sign, header, signsBody } = SENDERS[sender];

    it('accepts a delivery signed with it', async () => {
      const request = fixture();
      expectAccepted(await post(tenant, sender, request, sign(request.raw, SECRET)));
    });

    it('refuses a wrong signature and a missing one with 401, storing nothing', async () => {
      const before = (await listSignals(client, tenant.keyHeaders)).length;
      const request = fixture();
      const wrong = await post(tenant, sender, request, sign(request.raw, 'another-secret-entirely'));
      expect(wrong.status, wrong.text).toBe(401);
      expect(wrong.body).toMatchObject({ success: false, message: 'Invalid webhook signature' });
      const missing = await post(tenant, sender, request, {});
      expect(missing.status, missing.text).toBe(401);
      expect(missing.body.errors[0]).toContain(header);
      expect((await listSignals(client, tenant.keyHeaders)).length).toBe(before);
    });

    if (signsBody) {
      it('refuses a body changed after signing', async () => {
        const request = fixture();
        const tampered = { ...request, raw: request.raw.replace(/}\s*$/, ',"extra":true}') };
        expect((await post(tenant, sender, tampered, sign(request.raw, SECRET))).status).toBe(401);
      });
    }

    it("does not apply to another workspace's deliveries", async () => {
      expectAccepted(await post(other, sender, fixture(), {}));
    });
  });

  it('verifies the go-pagerduty signed vector, and any one of several v1 signatures', async () => {
    const vector = JSON.parse(readFileSync(`${FIXTURES_DIR}/paging/go-pagerduty-signed-vector.json`, 'utf8')) as {
      secret: string;
      signature: string;
    };
    const signed = loadFixture('paging', 'go-pagerduty-signed-vector.json');
    expect(signed.headers['x-pagerduty-signature']).toBe(vector.signature);
    expect((await setSecret('paging', vector.secret)).status).toBe(200);
    expectAccepted(
      await post(
        tenant,
        'paging',
        { ...signed, headers: { ...signed.headers, 'x-webhook-id': randomUUID() } },
        {
          'x-pagerduty-signature': vector.signature,
        },
      ),
    );
    const several = `v1=${'0'.repeat(64)}, ${vector.signature}`;
    expectAccepted(await post(tenant, 'paging', signed, { 'x-pagerduty-signature': several }));
    expect((await post(tenant, 'paging', signed, { 'x-pagerduty-signature': `v1=${'0'.repeat(64)}` })).status).toBe(
      401,
    );
  });

  it('keeps a replaced secret valid for a grace period, so senders can be switched over after', async () => {
    const replaced = await setSecret('codehost-a', 'the-next-webhook-secret');
    expect(replaced.body.data.previousValidUntil).toEqual(expect.any(String));
    const request = SENDERS['codehost-a'].fixture();
    expectAccepted(
      await post(tenant, 'codehost-a', request, SENDERS['codehost-a'].sign(request.raw, 'the-next-webhook-secret')),
    );
    expectAccepted(await post(tenant, 'codehost-a', request, SENDERS['codehost-a'].sign(request.raw, SECRET)));
  });

  it('removes a secret, after which deliveries are not checked; removing it again is 404', async () => {
    const removed = await client.request('DELETE', `${SECRETS}/codehost-b`, undefined, tenant.admin.auth);
    expect(removed.status, removed.text).toBe(200);
    expectAccepted(await post(tenant, 'codehost-b', SENDERS['codehost-b'].fixture(), {}));
    expect((await client.request('DELETE', `${SECRETS}/codehost-b`, undefined, tenant.admin.auth)).status).toBe(404);
    const listed = await client.request('GET', SECRETS, undefined, tenant.admin.auth);
    expect(listed.body.data.find(({ sender }: { sender: string }) => sender === 'codehost-b')).toMatchObject({
      configured: false,
    });
  });

  it('lets only a workspace ADMIN with a Bearer token manage secrets', async () => {
    const engineer = await joinAs(client, tenant.admin, 'ENGINEER');
    expect((await setSecret('codehost-a', SECRET, engineer.auth)).status).toBe(403);
    expect((await client.request('GET', SECRETS, undefined, engineer.auth)).status).toBe(403);
    expect((await setSecret('codehost-a', SECRET, tenant.keyHeaders)).status).toBe(401);
  });

  it('validates the sender and the secret', async () => {
    const unsupported = await setSecret('metrics-alerts', SECRET);
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.errors[0]).toMatch(/^sender:/);
    const short = await setSecret('codehost-a', 'short');
    expect(short.status).toBe(400);
    expect(short.body.errors[0]).toMatch(/^secret:/);
  });
});
