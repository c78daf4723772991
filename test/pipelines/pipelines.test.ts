import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { createTenant, expectAccepted, postRaw, type Tenant } from '../ingestion-routes/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

const PIPELINES = '/api/v1/pipelines';

interface RunSpec {
  id: number;
  repository: string;
  branch: string;
  /** GitHub's status and conclusion. */
  state: ['completed', 'success' | 'failure' | 'cancelled'] | ['in_progress', null];
  startedAt: string;
}

const REPOSITORIES = ['Octo-Org/Api', 'octo-org/web', 'acme/infra'];
const BRANCHES = ['main', 'feature/x'];
const STATES: RunSpec['state'][] = [
  ['completed', 'success'],
  ['completed', 'failure'],
  ['in_progress', null],
  ['completed', 'cancelled'],
];

/** 30 runs over three repositories, two branches and four outcomes, started a minute apart. */
const SPECS: RunSpec[] = Array.from({ length: 30 }, (_unused, index) => ({
  id: 5_000_000 + index,
  repository: REPOSITORIES[index % 3] as string,
  branch: BRANCHES[index % 2] as string,
  state: STATES[index % 4] as RunSpec['state'],
  startedAt: new Date(Date.UTC(2024, 4, 1, 10, index)).toISOString().replace('.000', ''),
}));

const runIdOf = (spec: RunSpec) => `codehost_a-${spec.id}`;
const statusOf = (spec: RunSpec) => spec.state[1] ?? 'in_progress';

describe('pipelines', () => {
  let client: TestClient;
  let tenant: Tenant;
  const workflowRun = loadFixture('codehost-a', 'workflow_run.completed.0.json');

  const list = async (query = '') => {
    const reply = await client.request('GET', `${PIPELINES}${query}`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };
  const idsOf = (body: { data: { runs: { id: string }[] } }) => body.data.runs.map(({ id }) => id);
  /** The expected ids, newest start first. */
  const expected = (keep: (spec: RunSpec) => boolean) =>
    SPECS.filter(keep)
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
      .map(runIdOf);

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
    for (const spec of SPECS) {
      const body = withFields(workflowRun.body, {
        action: spec.state[0],
        'repository.full_name': spec.repository,
        'workflow_run.id': spec.id,
        'workflow_run.head_branch': spec.branch,
        'workflow_run.status': spec.state[0],
        'workflow_run.conclusion': spec.state[1],
        'workflow_run.run_started_at': spec.startedAt,
        'workflow_run.updated_at': spec.startedAt,
      });
      const headers = { 'x-github-event': 'workflow_run', 'x-github-delivery': randomUUID() };
      expectAccepted(
        await postRaw(client, 'codehost-a', JSON.stringify(body), headers, { headers: tenant.keyHeaders }),
      );
    }
    const gitlab = loadFixture('codehost-b', 'pipeline.json');
    expectAccepted(await postRaw(client, 'codehost-b', gitlab.raw, gitlab.headers, { headers: tenant.keyHeaders }));
  });

  afterAll(() => client.stack.stop());

  it('lists 25 runs by default, newest start first, as data.runs with pagination beside data', async () => {
    const body = await list();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'pagination', 'success']);
    expect(body.pagination).toEqual({ page: 1, limit: 25, total: 31, totalPages: 2 });
    expect(idsOf(body)).toEqual(expected(() => true).slice(0, 25));
    expect(Object.keys(body.data.runs[0]).sort()).toEqual(
      [
        'branch',
        'commitSha',
        'durationSeconds',
        'finishedAt',
        'id',
        'provider',
        'repository',
        'startedAt',
        'status',
      ].sort(),
    );
  });

  it('pages on', async () => {
    const body = await list('?page=2');
    expect(body.pagination).toEqual({ page: 2, limit: 25, total: 31, totalPages: 2 });
    // The code host B run started in 2016: the oldest, so the last.
    expect(idsOf(body)).toEqual([...expected(() => true).slice(25), 'codehost_b-31']);
    expect((await list('?limit=7&page=3')).data.runs).toHaveLength(7);
    expect(idsOf(await list('?limit=100'))).toHaveLength(31);
  });

  it('filters by status', async () => {
    for (const status of ['success', 'failure', 'in_progress', 'cancelled']) {
      const body = await list(`?status=${status}&limit=100`);
      const want = expected((spec) => statusOf(spec) === status);
      expect(idsOf(body).filter((id) => id.startsWith('codehost_a'))).toEqual(want);
      for (const run of body.data.runs) expect(run.status).toBe(status);
    }
  });

  it('filters by repository, case-insensitively, and by branch', async () => {
    expect(idsOf(await list('?repository=octo-org/api&limit=100'))).toEqual(
      expected((spec) => spec.repository === 'Octo-Org/Api'),
    );
    expect(idsOf(await list('?branch=feature/x&limit=100'))).toEqual(expected((spec) => spec.branch === 'feature/x'));
    expect(idsOf(await list('?repository=gitlab-org/gitlab-test'))).toEqual(['codehost_b-31']);
  });

  it('combines every filter', async () => {
    const body = await list('?status=success&repository=acme/infra&branch=main&provider=codehost_a&limit=100');
    expect(idsOf(body)).toEqual(
      expected((spec) => statusOf(spec) === 'success' && spec.repository === 'acme/infra' && spec.branch === 'main'),
    );
    expect(body.pagination.total).toBe(idsOf(body).length);
    expect(idsOf(await list('?repository=octo-org/web&branch=feature/x&limit=100'))).toEqual(
      expected((spec) => spec.repository === 'octo-org/web' && spec.branch === 'feature/x'),
    );
  });

  it('filters by provider', async () => {
    expect(idsOf(await list('?provider=codehost_b'))).toEqual(['codehost_b-31']);
    expect((await list('?provider=codehost_c')).pagination).toEqual({ page: 1, limit: 25, total: 0, totalPages: 0 });
  });

  it('refuses bad query values with field messages', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?page=0',
      '?status=done',
      '?provider=github',
      '?repository=justone',
      '?branch=',
    ]) {
      const reply = await client.request('GET', `${PIPELINES}${query}`, undefined, tenant.keyHeaders);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errors.length, query).toBeGreaterThan(0);
    }
  });

  it('gets one run with its jobs and raw payload', async () => {
    const spec = SPECS[1] as RunSpec;
    const reply = await client.request('GET', `${PIPELINES}/${runIdOf(spec)}`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({
      id: runIdOf(spec),
      provider: 'codehost_a',
      repository: spec.repository,
      branch: spec.branch,
      status: 'failure',
      startedAt: new Date(spec.startedAt).toISOString(),
      jobs: [],
      rawPayloadTruncated: false,
    });
    expect(reply.body.data.rawPayload.workflow_run.id).toBe(spec.id);
    expect(reply.body.data).toHaveProperty('commitMessage');
    expect(reply.body.data).toHaveProperty('triggeredBy');
  });

  it('answers 404 for an unknown run', async () => {
    const reply = await client.request('GET', `${PIPELINES}/codehost_a-1`, undefined, tenant.keyHeaders);
    expect(reply.status).toBe(404);
    expect(reply.body.success).toBe(false);
  });

  it('answers a Bearer token too, and refuses a key without analytics:read', async () => {
    expect((await client.request('GET', PIPELINES, undefined, tenant.admin.auth)).status).toBe(200);
    const key = await client.request(
      'POST',
      '/api/v1/apikey/createapikey',
      { name: 'ingest only', environment: 'PRODUCTION', scopes: ['ingestion:write'] },
      tenant.admin.auth,
    );
    const reply = await client.request('GET', PIPELINES, undefined, { 'x-api-key': key.body.data.key });
    expect(reply.status).toBe(403);
  });

  it('shows another workspace none of the runs', async () => {
    const other = await createTenant(client, 'Other Co');
    const reply = await client.request('GET', PIPELINES, undefined, other.keyHeaders);
    expect(reply.body.data.runs).toEqual([]);
    expect(reply.body.pagination.total).toBe(0);
    const run = await client.request(
      'GET',
      `${PIPELINES}/${runIdOf(SPECS[0] as RunSpec)}`,
      undefined,
      other.keyHeaders,
    );
    expect(run.status).toBe(404);
  });
});
