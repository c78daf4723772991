import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  INGESTION,
  PIPELINES,
  TICKETS,
  createTenant,
  expectAccepted,
  listChanges,
  listRuns,
  listSignals,
  postRaw,
  type Tenant,
} from './support.ts';

const octokit = createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string; examples: any[] }[];
const workflowJobExample = octokit.find(({ name }) => name === 'workflow_job')?.examples[2];

const githubHeaders = (event: string, delivery = randomUUID()) => ({
  'x-github-event': event,
  'x-github-delivery': delivery,
});

describe('ingestion deliveries', () => {
  let client: TestClient;
  let tenant: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });

  afterAll(() => client.stack.stop());

  describe('the three ways a sender may present the key', () => {
    const alertmanager = loadFixture('metrics-alerts', 'captured-request-with-headers.json');

    it('takes it in the query, as Alertmanager can put it in its URL', async () => {
      const reply = await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {
        query: `?apiKey=${encodeURIComponent(tenant.key)}`,
      });
      expectAccepted(reply);
      expect(reply.body.data.source).toBe('metrics-alerts');
    });

    it('takes it as Authorization: ApiKey, which Alertmanager 0.25 sends from http_config.authorization', async () => {
      const reply = await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {
        headers: { authorization: `ApiKey ${tenant.key}` },
      });
      // The same alert again: merged into the signal the first post opened.
      expect(expectAccepted(reply).deduplicated).toBe(true);
    });

    it('takes it as X-API-Key', async () => {
      expectAccepted(
        await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, { headers: tenant.keyHeaders }),
      );
    });

    it('refuses a Bearer token (401), no key (401) and a key without ingestion:write (403)', async () => {
      const bearer = await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {
        headers: tenant.admin.auth,
      });
      expect(bearer.status).toBe(401);
      expect(bearer.body).toMatchObject({ success: false, errors: expect.any(Array) });
      expect((await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {})).status).toBe(401);
      const readOnly = await client.request(
        'POST',
        '/api/v1/apikey/createapikey',
        { name: 'reader', environment: 'PRODUCTION', scopes: ['incidents:read'] },
        tenant.admin.auth,
      );
      const forbidden = await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {
        headers: { 'x-api-key': readOnly.body.data.key },
      });
      expect(forbidden.status).toBe(403);
    });

    it('counted the three accepted posts as occurrences of one signal', async () => {
      const signals = await listSignals(client, tenant.keyHeaders, '?source=metrics-alerts');
      expect(signals).toHaveLength(1);
      expect(signals[0]?.occurrences).toBe(3);
    });

    it('takes the request exactly as the captured Alertmanager configuration sends it: ?api_key= and Authorization: ApiKey', async () => {
      const reply = await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {
        query: `?api_key=${encodeURIComponent(tenant.key)}`,
        headers: { authorization: `ApiKey ${tenant.key}` },
      });
      expect(expectAccepted(reply).deduplicated).toBe(true);
      const queryOnly = await postRaw(client, 'metrics-alerts', alertmanager.raw, alertmanager.headers, {
        query: `?api_key=${encodeURIComponent(tenant.key)}`,
      });
      expectAccepted(queryOnly);
    });
  });

  describe('retried deliveries', () => {
    it('counts a paging-tool retry (the same X-Webhook-Id) once', async () => {
      const fixture = loadFixture('paging', 'v3-02-webhook_payload.json');
      const headers = { ...fixture.headers, 'x-webhook-id': randomUUID() };
      const first = expectAccepted(
        await postRaw(client, 'paging', fixture.raw, headers, { headers: tenant.keyHeaders }),
      );
      const retry = expectAccepted(
        await postRaw(client, 'paging', fixture.raw, headers, { headers: tenant.keyHeaders }),
      );
      expect(first.deduplicated).toBe(false);
      expect(retry).toMatchObject({ signalId: first.signalId, deduplicated: true });
      const signal = await client.request('GET', `/api/v1/signals/${first.signalId}`, undefined, tenant.keyHeaders);
      expect(signal.body.data.occurrences).toBe(1);
    });

    it('counts a GitHub redelivery (the same X-GitHub-Delivery) once, a new delivery of the same event twice', async () => {
      const fixture = loadFixture('codehost-a', 'pull_request.opened.0.json');
      const delivery = randomUUID();
      const first = expectAccepted(
        await postRaw(client, 'codehost-a', fixture.raw, githubHeaders('pull_request', delivery), {
          headers: tenant.keyHeaders,
        }),
      );
      const redelivered = expectAccepted(
        await postRaw(client, 'codehost-a', fixture.raw, githubHeaders('pull_request', delivery), {
          headers: tenant.keyHeaders,
        }),
      );
      expect(redelivered).toMatchObject({ signalId: first.signalId, deduplicated: true });
      const signal = async () =>
        (await client.request('GET', `/api/v1/signals/${first.signalId}`, undefined, tenant.keyHeaders)).body.data;
      expect((await signal()).occurrences).toBe(1);
      expectAccepted(
        await postRaw(client, 'codehost-a', fixture.raw, githubHeaders('pull_request'), { headers: tenant.keyHeaders }),
      );
      expect((await signal()).occurrences).toBe(2);
    });
  });

  describe('a pipeline run over its webhooks', () => {
    const requested = loadFixture('codehost-a', 'workflow_run.requested.3.json');
    const runId = 'codehost_a-289782451';
    const getRun = async () => {
      const reply = await client.request('GET', `${PIPELINES}/${runId}`, undefined, tenant.keyHeaders);
      expect(reply.status, reply.text).toBe(200);
      return reply.body.data;
    };
    const post = (body: unknown, event = 'workflow_run') =>
      postRaw(client, 'codehost-a', JSON.stringify(body), githubHeaders(event), { headers: tenant.keyHeaders });

    it('is created in progress by its first event', async () => {
      const reply = expectAccepted(await post(requested.body));
      expect(reply.signals[0].pipelineRunId).toBe(runId);
      expect(await getRun()).toMatchObject({
        status: 'in_progress',
        finishedAt: null,
        durationSeconds: null,
        jobs: [],
      });
    });

    it('is updated in place when it completes', async () => {
      const completed = withFields(requested.body, {
        action: 'completed',
        'workflow_run.status': 'completed',
        'workflow_run.conclusion': 'success',
        'workflow_run.updated_at': '2020-10-05T16:40:49Z',
      });
      expectAccepted(await post(completed));
      const run = await getRun();
      expect(run).toMatchObject({
        status: 'success',
        startedAt: '2020-10-05T16:33:49.000Z',
        finishedAt: '2020-10-05T16:40:49.000Z',
        durationSeconds: 420,
      });
      expect(run.rawPayload).toEqual(completed);
      const runs = await listRuns(client, tenant.keyHeaders, '?repository=octo-org/octo-repo');
      expect(runs.map(({ id, status }) => ({ id, status }))).toEqual([{ id: runId, status: 'success' }]);
      // The status index moved with it.
      expect((await listRuns(client, tenant.keyHeaders, '?status=in_progress')).map(({ id }) => id)).not.toContain(
        runId,
      );
    });

    it('ignores a late event older than what it holds', async () => {
      expectAccepted(await post(requested.body));
      const run = await getRun();
      expect(run.status).toBe('success');
      expect(run.rawPayload.action).toBe('completed');
    });

    it('merges job results by name, a later result of the same job replacing an earlier one', async () => {
      const job = (conclusion: string, completedAt: string) =>
        withFields(workflowJobExample, {
          repository: requested.body && (requested.body as any).repository,
          'workflow_job.run_id': 289782451,
          'workflow_job.started_at': '2020-10-05T16:34:00Z',
          'workflow_job.conclusion': conclusion,
          'workflow_job.completed_at': completedAt,
        });
      expectAccepted(await post(job('failure', '2020-10-05T16:38:00Z'), 'workflow_job'));
      expectAccepted(await post(job('success', '2020-10-05T16:39:00Z'), 'workflow_job'));
      expectAccepted(await post(job('failure', '2020-10-05T16:38:00Z'), 'workflow_job'));
      const run = await getRun();
      expect(run.jobs).toEqual([{ name: 'linters', status: 'success', durationSeconds: 300 }]);
      // Job events never replace the run's own fields or its payload.
      expect(run).toMatchObject({ status: 'success', durationSeconds: 420 });
      expect(run.rawPayload.action).toBe('completed');
    });
  });

  describe('a change over its deployment webhooks', () => {
    const deployment = loadFixture('codehost-b', 'deployment.json');
    const post = (status: string, changedAt: string) =>
      postRaw(
        client,
        'codehost-b',
        JSON.stringify(withFields(deployment.body, { status, status_changed_at: changedAt, deployment_id: 77 })),
        { ...deployment.headers, 'x-gitlab-event-uuid': randomUUID() },
        { headers: tenant.keyHeaders },
      );
    const change = async () => (await listChanges(client, tenant.keyHeaders)).find(({ id }) => id === 'codehost_b-77');

    it('moves from running to success in place, with its history; a late older state changes nothing', async () => {
      expectAccepted(await post('running', '2021-04-28 21:40:00 +0200'));
      expect(await change()).toMatchObject({
        status: 'IN_PROGRESS',
        priority: 'MEDIUM',
        assignedTo: 'admin@example.com',
      });
      expectAccepted(await post('success', '2021-04-28 21:50:00 +0200'));
      expectAccepted(await post('running', '2021-04-28 21:40:00 +0200'));
      const stored = await change();
      expect(stored).toMatchObject({ status: 'SUCCEEDED' });
      expect((await listChanges(client, tenant.keyHeaders)).filter(({ id }) => id === 'codehost_b-77')).toHaveLength(1);
      const history = await client.request(
        'GET',
        `${TICKETS}/history?ticketId=codehost_b-77`,
        undefined,
        tenant.keyHeaders,
      );
      expect(history.body.data.map(({ event, from, to }: Record<string, unknown>) => ({ event, from, to }))).toEqual([
        { event: 'CREATED', from: null, to: 'IN_PROGRESS' },
        { event: 'STATUS_CHANGE', from: 'IN_PROGRESS', to: 'SUCCEEDED' },
      ]);
      const filtered = await client.request(
        'GET',
        `${TICKETS}?type=CHANGE&status=SUCCEEDED`,
        undefined,
        tenant.keyHeaders,
      );
      expect(filtered.status, filtered.text).toBe(200);
      expect(filtered.body.data.map(({ id }: { id: string }) => id)).toContain('codehost_b-77');
    });

    it('ranks a change to production HIGH', async () => {
      const body = withFields(deployment.body, { environment: 'production', deployment_id: 78 });
      expectAccepted(
        await postRaw(client, 'codehost-b', JSON.stringify(body), deployment.headers, { headers: tenant.keyHeaders }),
      );
      expect((await listChanges(client, tenant.keyHeaders)).find(({ id }) => id === 'codehost_b-78')).toMatchObject({
        priority: 'HIGH',
        status: 'SUCCEEDED',
      });
    });
  });

  it('answers 400, not 5xx, for a body that is valid JSON but no payload of its sender', async () => {
    for (const sender of [
      'codehost-a',
      'codehost-b',
      'codehost-c',
      'orchestrator',
      'paging',
      'metrics-alerts',
      'monitoring',
      'webhook',
    ]) {
      for (const body of ['{}', '[]', 'null', '"text"', '{"alerts":"many"}']) {
        const reply = await client.request('POST', `${INGESTION}/${sender}`, body, {
          ...tenant.keyHeaders,
          'x-github-event': 'push',
        });
        expect(reply.status, `${sender} ${body}: ${reply.text}`).toBeLessThan(500);
        expect([400, 202], `${sender} ${body}: ${reply.text}`).toContain(reply.status);
      }
    }
  });
});
