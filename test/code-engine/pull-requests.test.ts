import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { FakeCodeHost } from '../support/fake-code-host.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  CODE_ENGINE,
  connectCodeHost,
  MAIN_AFTER_COMMIT,
  postDeployment,
  REPO,
  startSeededCodeHost,
} from './support.ts';
import { createIncident } from '../support/incidents.ts';

describe('code engine: settings and pull requests', () => {
  let client: TestClient;
  let host: FakeCodeHost;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  let engineer: SignedIn;

  const openPr = (id: string, body: unknown = { repo: REPO }, auth: Record<string, string> = admin.auth) =>
    client.request('POST', `${CODE_ENGINE}/create-pr/${id}`, body, auth);
  /** A new incident on the deployed service with a fix generated for it. */
  const incidentWithFix = async (): Promise<{ id: string; fixId: string }> => {
    const id = (await createIncident(client, admin.auth, { serviceArea: 'hello-world', environment: 'production' })).id;
    const reply = await client.request('POST', `${CODE_ENGINE}/generate-fix/${id}`, undefined, admin.auth);
    expect(reply.status, reply.text).toBe(200);
    return { id, fixId: reply.body.data.fixId };
  };

  beforeAll(async () => {
    [client, host] = await Promise.all([startTestStack(), startSeededCodeHost()]);
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [viewer, engineer] = await Promise.all([joinAs(client, admin, 'VIEWER'), joinAs(client, admin, 'ENGINEER')]);
    await postDeployment(client, await apiKeyHeaders(client, admin, ['ingestion:write']));
  });
  afterAll(async () => {
    await Promise.all([client.stack.stop(), host.stop()]);
  });

  describe('/code-engine/settings', () => {
    it('starts unconfigured, stores a token it never answers, and is for ADMINs with a Bearer token only', async () => {
      const before = await client.request('GET', `${CODE_ENGINE}/settings`, undefined, admin.auth);
      expect(before.body.data).toEqual({
        configured: false,
        baseUrl: 'https://api.github.com',
        tokenHint: null,
        updatedAt: null,
        updatedBy: null,
      });
      const put = await client.request(
        'PUT',
        `${CODE_ENGINE}/settings`,
        { token: host.token, baseUrl: `${host.url}/` },
        admin.auth,
      );
      expect(put.status).toBe(200);
      expect(put.body.data).toMatchObject({
        configured: true,
        baseUrl: host.url,
        tokenHint: '…0001',
        updatedBy: admin.email,
      });
      expect(put.text).not.toContain(host.token);
      const after = await client.request('GET', `${CODE_ENGINE}/settings`, undefined, admin.auth);
      expect(after.body.data).toEqual(put.body.data);
      expect(after.text).not.toContain(host.token);
      for (const as of [viewer, engineer]) {
        expect((await client.request('GET', `${CODE_ENGINE}/settings`, undefined, as.auth)).status).toBe(403);
        expect((await client.request('PUT', `${CODE_ENGINE}/settings`, { token: 'x' }, as.auth)).status).toBe(403);
      }
      const key = await apiKeyHeaders(client, admin, ['integrations:write']);
      expect((await client.request('PUT', `${CODE_ENGINE}/settings`, { token: 'x' }, key)).status).toBe(401);
      const theirs = await client.request('GET', `${CODE_ENGINE}/settings`, undefined, other.auth);
      expect(theirs.body.data.configured).toBe(false);
    });

    it('refuses a blank token and a base URL that is not http(s), one message each', async () => {
      const reply = await client.request(
        'PUT',
        `${CODE_ENGINE}/settings`,
        { token: ' ', baseUrl: 'ftp://codehost.example' },
        admin.auth,
      );
      expect(reply.status).toBe(400);
      expect((reply.body.errors as string[]).map((error) => error.split(':')[0]).sort()).toEqual(['baseUrl', 'token']);
    });
  });

  describe('POST /code-engine/create-pr/:id', () => {
    it('opens a pull request applying the fix on a new branch from main, and records it on the fix', async () => {
      await connectCodeHost(client, admin, host);
      const { id, fixId } = await incidentWithFix();
      const reply = await openPr(id, { repo: REPO }, engineer.auth);
      expect(reply.status, reply.text).toBe(201);
      const branch = `incident-fix/${id.toLowerCase()}-${fixId.slice(-8).toLowerCase()}`;
      expect(reply.body.data).toEqual({
        fixId,
        pullRequest: {
          number: 1,
          url: `https://codehost.example/${REPO}/pull/1`,
          repo: REPO,
          branch,
          baseBranch: 'main',
          openedAt: expect.any(String),
          openedBy: engineer.email,
        },
      });
      expect(host.files(REPO, branch)).toEqual({
        'src/client.js': MAIN_AFTER_COMMIT['src/client.js'].replace('300;', '3000;'),
        'README.md': MAIN_AFTER_COMMIT['README.md'],
      });
      expect(host.files(REPO, 'main')).toEqual(MAIN_AFTER_COMMIT);
      const [pull] = host.pulls(REPO);
      expect(pull).toMatchObject({ head: branch, base: 'main', title: expect.stringContaining('Revert') });
      expect(pull?.body).toContain('### Evidence');
      const analysis = await client.request('GET', `${CODE_ENGINE}/analysis/${id}`, undefined, viewer.auth);
      expect(analysis.body.data.fix.pullRequest).toEqual(reply.body.data.pullRequest);

      const again = await openPr(id);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(
        `A pull request is already open for this fix: ${reply.body.data.pullRequest.url}`,
      );
    });

    it('is a 409 before a fix exists, and 400 for a malformed repo or branch', async () => {
      const bare = (await createIncident(client, admin.auth, { serviceArea: 'hello-world' })).id;
      const reply = await openPr(bare);
      expect(reply.status).toBe(409);
      expect(reply.body.message).toContain(`/api/v1/code-engine/generate-fix/${bare}`);
      const invalid = await openPr(bare, { repo: 'no-owner', baseBranch: '../main' });
      expect(invalid.status).toBe(400);
      expect((invalid.body.errors as string[]).map((error) => error.split(':')[0]).sort()).toEqual([
        'baseBranch',
        'repo',
      ]);
      expect((await openPr(bare, {})).body.errors).toEqual([
        'repo: Invalid input: expected string, received undefined',
      ]);
    });

    it('writes nothing when the fix no longer applies, nor when code host A refuses; then opens once it can', async () => {
      const { id } = await incidentWithFix();
      const writes = () => host.requests.filter((request) => !request.startsWith('GET')).length;
      const before = writes();

      host.setFile(REPO, 'main', 'src/client.js', 'const timeoutMs = 5000;\n');
      const stale = await openPr(id);
      expect(stale.status).toBe(409);
      expect(stale.body.errors).toEqual(['src/client.js: has changed since the commit, the revert does not apply']);
      host.setFile(REPO, 'main', 'src/client.js', MAIN_AFTER_COMMIT['src/client.js']);

      const unknownBranch = await openPr(id, { repo: REPO, baseBranch: 'release/9' });
      expect(unknownBranch.status).toBe(422);
      expect(unknownBranch.body.message).toContain('reading branch release/9');
      expect((await openPr(id, { repo: 'acme/unknown' })).status).toBe(422);

      host.failNext({
        match: /git\/ref\/heads/,
        status: 403,
        body: { message: 'Resource not accessible by integration' },
      });
      const denied = await openPr(id);
      expect(denied.status).toBe(502);
      expect(denied.body.errors).toEqual(['codeHostA: 403']);

      host.failNext({ match: /git\/ref\/heads/, status: 429, headers: { 'retry-after': '30' } });
      const limited = await openPr(id);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('30');
      expect(writes()).toBe(before);

      host.failNext({ match: /^POST .*git\/refs$/, status: 422, body: { message: 'Reference already exists' } });
      const exists = await openPr(id);
      expect(exists.status).toBe(409);
      expect(exists.body.message).toMatch(/^Branch incident-fix\/.+ already exists in Codertocat\/Hello-World/);

      const key = await apiKeyHeaders(client, admin, ['integrations:write']);
      expect((await openPr(id, { repo: REPO }, key)).status).toBe(201);
    });

    it('is for ADMIN and ENGINEER and integrations:write keys; 404 for another workspace', async () => {
      const { id } = await incidentWithFix();
      expect((await openPr(id, { repo: REPO }, viewer.auth)).status).toBe(403);
      expect((await openPr(id, { repo: REPO }, await apiKeyHeaders(client, admin, ['incidents:write']))).status).toBe(
        403,
      );
      const theirs = await openPr(id, { repo: REPO }, other.auth);
      expect(theirs.status).toBe(404);
      expect(theirs.body.message).toBe('Incident not found');
    });
  });
});
