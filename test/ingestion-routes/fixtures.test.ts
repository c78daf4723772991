import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import { INGESTION_SENDERS } from '#lib/ingestion/senders/index.ts';
import { SENDER_FIXTURES } from '../support/sender-fixtures.ts';
import { allFixtureFiles, loadFixture, type Fixture, normalizers } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  PIPELINES,
  SIGNALS,
  createTenant,
  listChanges,
  listRuns,
  listSignals,
  postRaw,
  type Tenant,
} from './support.ts';

/** Every payload file of the shared fixtures, posted the way its sender posts it, in file order per sender. */
describe('every fixture through its ingestion route', () => {
  let client: TestClient;
  let tenant: Tenant;
  // AWS's senders have documented shapes, not shared payloads, and SNS messages must be signed by a stand-in:
  // cloudwatch.test.ts and eventbridge.test.ts post them.
  const fixtures: Fixture[] = allFixtureFiles()
    .filter(({ sender }) => sender !== 'cloudwatch' && sender !== 'eventbridge')
    .map(({ sender, file }) => loadFixture(sender, file));
  const posted: { fixture: Fixture; events: NormalizedEvent[]; data: Record<string, any> }[] = [];

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
    for (const fixture of fixtures) {
      const reply = await postRaw(client, fixture.sender, fixture.raw, fixture.headers, { headers: tenant.keyHeaders });
      const events = normalizers[fixture.sender](fixture.body, fixture.headers, new Date());
      posted.push({
        fixture,
        events,
        data: reply.status === 202 ? reply.body.data : { status: reply.status, reply: reply.text },
      });
    }
  });

  afterAll(async () => {
    await client.stack.stop();
  });

  it('covers every sender with payloads but the AWS ones', () => {
    const withPayloads = INGESTION_SENDERS.filter((sender) => SENDER_FIXTURES[sender].files.length > 0);
    expect(new Set(fixtures.map(({ sender }) => sender))).toEqual(
      new Set(withPayloads.filter((sender) => sender !== 'cloudwatch' && sender !== 'eventbridge')),
    );
    expect(fixtures.length).toBeGreaterThanOrEqual(29);
  });

  it('answers 202 with the spec fields and one outcome per event', () => {
    for (const { fixture, events, data } of posted) {
      expect(data.status, `${fixture.sender}/${fixture.file}: ${data.reply}`).toBeUndefined();
      expect(data.source).toBe(fixture.sender);
      expect(data.signals).toHaveLength(events.length);
      expect(data.signalId).toBe(data.signals[0].signalId);
      expect(data.deduplicated).toBe(data.signals[0].deduplicated);
    }
    const twoAlerts = posted.find(({ fixture }) => fixture.file === 'captured-firing-2alerts.json');
    expect(twoAlerts?.data.signals).toHaveLength(2);
    expect(new Set(twoAlerts?.data.signals.map((signal: { signalId: string }) => signal.signalId)).size).toBe(2);
  });

  it('stores exactly the signals it answered with, each under its sender as source', async () => {
    const answered = new Set(
      posted.flatMap(({ data }) => data.signals.map((signal: { signalId: string }) => signal.signalId)),
    );
    const stored = await listSignals(client, tenant.keyHeaders);
    expect(new Set(stored.map((signal) => signal.id))).toEqual(answered);
    for (const { fixture, data } of posted) {
      for (const { signalId } of data.signals) {
        const signal = stored.find((candidate) => candidate.id === signalId);
        expect(signal?.source, `${fixture.file}`).toBe(fixture.sender);
      }
    }
  });

  it('resolves what a later payload resolves: the paging incident and the alert', async () => {
    const stored = await listSignals(client, tenant.keyHeaders);
    const idOf = (file: string, index = 0): string =>
      posted.find(({ fixture }) => fixture.file === file)?.data.signals[index].signalId;
    const statusOf = (id: string) => stored.find((signal) => signal.id === id)?.status;

    const resolve = posted.find(({ fixture }) => fixture.file === 'v2-03-incident_resolve.json')?.data.signals[0];
    expect(resolve).toMatchObject({ resolved: true, signalId: idOf('v2-01-incident_trigger.json') });
    expect(statusOf(idOf('v2-01-incident_trigger.json'))).toBe('RESOLVED');

    // Alertmanager: the firing captured twice (one episode, startsAt 02:00:16) is one signal, which the
    // resolve ends: its episode ended at 02:00:26, after that signal began, whatever start it names.
    expect(idOf('captured.json')).toBe(idOf('captured-request-with-headers.json'));
    expect(idOf('captured-resolved.json')).toBe(idOf('captured.json'));
    expect(statusOf(idOf('captured.json'))).toBe('RESOLVED');
  });

  it('records a pipeline run for every run or job event, and nothing else', async () => {
    const expected = new Set(
      posted.flatMap(({ events }) => events.flatMap((event) => event.pipelineRun?.runKey ?? [])),
    );
    expect(expected.size).toBe(6);
    const runs = await listRuns(client, tenant.keyHeaders);
    expect(new Set(runs.map((run) => run.id))).toEqual(expected);
    for (const { fixture, data, events } of posted) {
      events.forEach((event, index) => {
        expect(data.signals[index].pipelineRunId, fixture.file).toBe(event.pipelineRun?.runKey);
      });
    }
  });

  it('keeps each run with its jobs and the webhook body', async () => {
    const pipeline = fixtures.find(({ sender, file }) => sender === 'codehost-b' && file === 'pipeline.json');
    const reply = await client.request('GET', `${PIPELINES}/codehost_b-31`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({
      id: 'codehost_b-31',
      provider: 'codehost_b',
      repository: 'gitlab-org/gitlab-test',
      branch: 'master',
      status: 'success',
      rawPayloadTruncated: false,
    });
    expect(reply.body.data.rawPayload).toEqual(pipeline?.body);
    expect(reply.body.data.jobs.map((job: { name: string; status: string }) => `${job.name}:${job.status}`)).toEqual([
      'build-image:success',
      'production:skipped',
      'staging:skipped',
      'test-build:success',
      'test-image:success',
    ]);
  });

  it('joins code host C job and workflow events into one run, the workflow deciding its status', async () => {
    const runs = await listRuns(client, tenant.keyHeaders, '?provider=codehost_c');
    expect(runs).toHaveLength(1);
    const reply = await client.request('GET', `${PIPELINES}/${runs[0]?.id}`, undefined, tenant.keyHeaders);
    expect(reply.body.data).toMatchObject({
      repository: 'circleci/webhook-service',
      branch: 'main',
      status: 'success',
      jobs: [{ name: 'test', status: 'success' }],
    });
    expect(reply.body.data.finishedAt).not.toBeNull();
  });

  it('creates a run from a job event when its run is unknown', async () => {
    const reply = await client.request('GET', `${PIPELINES}/codehost_b-743121198`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.jobs).toEqual([
      { name: 'auto_deploy:start', status: 'success', durationSeconds: expect.any(Number) },
    ]);
  });

  it('turns deployments into CHANGE tickets of the unified list', async () => {
    const changes = await listChanges(client, tenant.keyHeaders);
    expect(changes.map((change) => change.id).sort()).toEqual(['codehost_a-145988746', 'codehost_b-15']);
    for (const change of changes) {
      expect(change).toMatchObject({ type: 'CHANGE', status: 'SUCCEEDED' });
      expect(change.summary).toMatch(/^Deploy /);
    }
    expect(changes.find((change) => change.id === 'codehost_b-15')?.assignedTo).toBe('admin@example.com');
    const history = await client.request(
      'GET',
      '/api/v1/tickets/history?ticketId=codehost_b-15',
      undefined,
      tenant.keyHeaders,
    );
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.map((event: { event: string }) => event.event)).toEqual(['CREATED']);
  });

  it('lets the signals route read every stored signal by id', async () => {
    const [first] = posted;
    const reply = await client.request('GET', `${SIGNALS}/${first?.data.signalId}`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
  });

  it('reads the captured Alertmanager request as it was sent, trailing newline included', () => {
    const captured = posted.find(({ fixture }) => fixture.file === 'captured-request-with-headers.json');
    expect(captured?.fixture.raw.endsWith('}\n')).toBe(true);
    expect(captured?.data.signals).toHaveLength(1);
  });

  it('answers 400 with field messages, and stores nothing, for a payload its sender could not have sent', async () => {
    const before = (await listSignals(client, tenant.keyHeaders)).length;
    const reply = await client.request(
      'POST',
      '/api/v1/ingestion/metrics-alerts',
      { receiver: 'hook', status: 'firing', alerts: [] },
      tenant.keyHeaders,
    );
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors.length).toBeGreaterThan(0);
    const malformed = await client.request('POST', '/api/v1/ingestion/codehost-a', '{"action":', {
      ...tenant.keyHeaders,
      'x-github-event': 'push',
    });
    expect(malformed.status).toBe(400);
    expect((await listSignals(client, tenant.keyHeaders)).length).toBe(before);
  });

  it('shows another workspace none of it', async () => {
    const other = await createTenant(client, 'Other Co');
    expect(await listSignals(client, other.keyHeaders)).toEqual([]);
    expect(await listRuns(client, other.keyHeaders)).toEqual([]);
    expect(await listChanges(client, other.keyHeaders)).toEqual([]);
    const run = await client.request('GET', `${PIPELINES}/codehost_b-31`, undefined, other.keyHeaders);
    expect(run.status).toBe(404);
  });
});
