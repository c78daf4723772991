import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeaders, joinAs, signUpBusiness, type SignedIn } from '../support/accounts.ts';
import type { FakeCodeHost } from '../support/fake-code-host.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  CODE_ENGINE,
  connectCodeHost,
  DEPLOYED_COMMIT_FILES,
  DEPLOYED_SHA,
  EXPECTED_DIFF,
  MAIN_AFTER_COMMIT,
  postDeployment,
  postPipelineRun,
  REPO,
  RUN_SHA,
  startSeededCodeHost,
} from './support.ts';
import { createIncident } from '../support/incidents.ts';

const run = promisify(execFile);

describe('code engine: analysis and generated fixes', () => {
  let client: TestClient;
  let host: FakeCodeHost;
  let admin: SignedIn;
  let other: SignedIn;
  let viewer: SignedIn;
  let engineer: SignedIn;
  let incidentId: string;

  const analysis = async (id: string, auth: Record<string, string> = admin.auth) => {
    const reply = await client.request('GET', `${CODE_ENGINE}/analysis/${id}`, undefined, auth);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };
  const generate = (id: string, auth: Record<string, string> = admin.auth) =>
    client.request('POST', `${CODE_ENGINE}/generate-fix/${id}`, undefined, auth);

  beforeAll(async () => {
    [client, host] = await Promise.all([startTestStack(), startSeededCodeHost()]);
    [admin, other] = await Promise.all([signUpBusiness(client), signUpBusiness(client, { businessName: 'Other Co' })]);
    [viewer, engineer] = await Promise.all([joinAs(client, admin, 'VIEWER'), joinAs(client, admin, 'ENGINEER')]);
    const senders = await apiKeyHeaders(client, admin, ['ingestion:write']);
    await postDeployment(client, senders);
    await postPipelineRun(client, senders, 30);
    incidentId = (
      await createIncident(client, admin.auth, {
        serviceArea: 'hello-world, billing',
        environment: 'Production',
      })
    ).id;
  });
  afterAll(async () => {
    await Promise.all([client.stack.stop(), host.stop()]);
  });

  describe('GET /code-engine/analysis/:id', () => {
    it('answers the incident, its suspect changes ranked (the deployment above the run) and no fix yet', async () => {
      const data = await analysis(incidentId);
      expect(data.incident).toMatchObject({
        id: incidentId,
        ticketId: incidentId,
        serviceArea: 'hello-world, billing',
        environment: 'Production',
      });
      expect(data.window.to).toBe(data.incident.createdAt);
      expect(Date.parse(data.window.to) - Date.parse(data.window.from)).toBe(6 * 3_600_000);
      expect(data.fix).toBeNull();
      const [deployment, pipelineRun, ...rest] = data.suspectChanges;
      expect(rest).toEqual([]);
      expect(deployment).toMatchObject({
        kind: 'DEPLOYMENT',
        repository: REPO,
        commitSha: DEPLOYED_SHA,
        environment: 'production',
        status: 'SUCCEEDED',
        minutesBeforeIncident: 0,
        score: 0.9,
      });
      expect(deployment.reasons[0]).toBe(`the incident's service hello-world is built from ${REPO}`);
      expect(pipelineRun).toMatchObject({ kind: 'PIPELINE_RUN', repository: REPO, commitSha: RUN_SHA, branch: 'main' });
      expect(pipelineRun.minutesBeforeIncident).toBeGreaterThanOrEqual(30);
      expect(pipelineRun.score).toBeLessThan(deployment.score);
    });

    it('leaves out deployments to another environment and changes of other services', async () => {
      const staging = (await createIncident(client, admin.auth, { serviceArea: 'hello-world', environment: 'staging' }))
        .id;
      expect((await analysis(staging)).suspectChanges.map((suspect: { kind: string }) => suspect.kind)).toEqual([
        'PIPELINE_RUN',
      ]);
      const billing = (await createIncident(client, admin.auth, { serviceArea: 'billing' })).id;
      expect((await analysis(billing)).suspectChanges).toEqual([]);
    });

    it('matches a repository the incident names in its text, whatever its service', async () => {
      const named = (
        await createIncident(client, admin.auth, {
          summary: `Errors after the deploy of ${REPO.toLowerCase()}`,
          environment: 'production',
        })
      ).id;
      const [first] = (await analysis(named)).suspectChanges;
      expect(first).toMatchObject({
        kind: 'DEPLOYMENT',
        score: 1,
        reasons: [`the incident names ${REPO}`, expect.any(String)],
      });
    });

    it('is readable by every role and by incidents:read keys; 404 for another workspace, unknown or malformed ids', async () => {
      await analysis(incidentId, viewer.auth);
      await analysis(incidentId, await apiKeyHeaders(client, admin, ['incidents:read']));
      const wrongKey = await apiKeyHeaders(client, admin, ['analytics:read']);
      expect((await client.request('GET', `${CODE_ENGINE}/analysis/${incidentId}`, undefined, wrongKey)).status).toBe(
        403,
      );
      for (const id of [incidentId, 'INC-20200101-0001', 'nonsense']) {
        const reply = await client.request('GET', `${CODE_ENGINE}/analysis/${id}`, undefined, other.auth);
        expect(reply.status, id).toBe(404);
        expect(reply.body).toMatchObject({ success: false, message: 'Incident not found' });
      }
      expect((await client.request('GET', `${CODE_ENGINE}/analysis/${incidentId}`)).status).toBe(401);
    });
  });

  describe('POST /code-engine/generate-fix/:id', () => {
    it('is a 409 naming the settings route while code host A is not connected, and stores nothing', async () => {
      const reply = await generate(incidentId);
      expect(reply.status).toBe(409);
      expect(reply.body.message).toContain('PUT /api/v1/code-engine/settings');
      expect((await analysis(incidentId)).fix).toBeNull();
    });

    it("proposes the revert of the top suspect's commit, fetched from code host A, and stores it", async () => {
      await connectCodeHost(client, admin, host);
      const reply = await generate(incidentId, engineer.auth);
      expect(reply.status, reply.text).toBe(200);
      const fix = reply.body.data;
      expect(fix).toMatchObject({
        incidentId,
        kind: 'REVERT_COMMIT',
        repository: REPO,
        commitSha: DEPLOYED_SHA,
        title: `Revert "Cut the client timeout to 300 ms" (f95f852) for ${incidentId}`,
        diff: EXPECTED_DIFF,
        files: [
          { path: 'src/client.js', change: 'modify' },
          { path: 'config/flags.json', change: 'delete' },
        ],
        pullRequest: null,
        generatedBy: engineer.email,
      });
      expect(fix.rationale).toContain('0 min after the deployment of Codertocat/Hello-World to production');
      expect(fix.rationale).toContain('1 other suspect change scored lower');
      expect(fix.evidence.map((suspect: { commitSha: string }) => suspect.commitSha)).toEqual([DEPLOYED_SHA, RUN_SHA]);
      expect(host.requests).toContain(`GET /repos/${REPO}/commits/${DEPLOYED_SHA}`);
      expect((await analysis(incidentId)).fix).toEqual(fix);
    });

    it('answers a diff that git apply takes on the code the commit left', async () => {
      const fix = (await analysis(incidentId)).fix;
      const dir = await mkdtemp(join(tmpdir(), 'revert-'));
      try {
        for (const [path, text] of Object.entries(MAIN_AFTER_COMMIT)) {
          await mkdir(dirname(join(dir, path)), { recursive: true });
          await writeFile(join(dir, path), text);
        }
        await writeFile(join(dir, 'fix.diff'), fix.diff);
        await run('git', ['apply', 'fix.diff'], { cwd: dir });
        const { stdout } = await run('cat', ['src/client.js'], { cwd: dir });
        expect(stdout).toContain('const timeoutMs = 3000;');
        await expect(run('test', ['-e', 'config/flags.json'], { cwd: dir })).rejects.toThrow();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('is a 422 with what was searched when nothing is suspect, and proposes no diff', async () => {
      const billing = (await createIncident(client, admin.auth, { serviceArea: 'billing', environment: 'production' }))
        .id;
      const reply = await generate(billing);
      expect(reply.status).toBe(422);
      expect(reply.body.message).toBe(
        `No suspect change for incident ${billing}: no deployment or pipeline run on its repositories shortly before it; no fix is proposed`,
      );
      expect(reply.body.errors).toHaveLength(3);
      expect((await analysis(billing)).fix).toBeNull();
    });

    it('is a 422 when the commit cannot be reverted file by file (a renamed or binary file)', async () => {
      host.addCommit(REPO, DEPLOYED_SHA, 'Move assets', [
        { filename: 'assets/logo.png', status: 'modified' },
        { filename: 'docs/new.md', status: 'renamed', patch: '' },
      ]);
      try {
        const reply = await generate(incidentId);
        expect(reply.status).toBe(422);
        expect(reply.body.errors).toEqual([
          'assets/logo.png: code host A gave no text diff (binary or too large)',
          'docs/new.md: a renamed file is not reverted automatically',
        ]);
      } finally {
        host.addCommit(REPO, DEPLOYED_SHA, 'Cut the client timeout to 300 ms', DEPLOYED_COMMIT_FILES);
      }
    });

    it("passes code host A's refusals on: a wrong token is a 502, its rate limit a 429 with Retry-After, its failure a 502", async () => {
      host.failNext({ match: /commits/, status: 401, body: { message: 'Bad credentials' } });
      const refused = await generate(incidentId);
      expect(refused.status).toBe(502);
      expect(refused.body.message).toContain('refused the workspace token');
      expect(refused.body.errors).toEqual(['codeHostA: 401']);
      expect(refused.text).not.toContain('Bad credentials');

      const reset = Math.floor(Date.now() / 1000) + 120;
      host.failNext({
        match: /commits/,
        status: 403,
        body: { message: 'API rate limit exceeded' },
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      });
      const limited = await generate(incidentId);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(118);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(121);

      host.failNext({ match: /commits/, status: 503, body: { message: 'unavailable' } });
      expect((await generate(incidentId)).status).toBe(502);
    });

    it('is for ADMIN and ENGINEER and incidents:write keys; 404 for another workspace', async () => {
      expect((await generate(incidentId, viewer.auth)).status).toBe(403);
      expect((await generate(incidentId, await apiKeyHeaders(client, admin, ['incidents:read']))).status).toBe(403);
      expect((await generate(incidentId, await apiKeyHeaders(client, admin, ['incidents:write']))).status).toBe(200);
      expect((await generate(incidentId, other.auth)).status).toBe(404);
    });
  });
});
