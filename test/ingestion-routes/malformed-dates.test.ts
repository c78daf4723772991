import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import {
  INGESTION,
  PIPELINES,
  SIGNALS,
  createTenant,
  expectAccepted,
  listChanges,
  listRuns,
  listSignals,
  postRaw,
  type Tenant,
} from './support.ts';

/** The generic webhook's message for a bad `timestamp`, which every sender's date-time field answers. */
const INVALID = 'Invalid ISO 8601 date-time';

interface Case {
  sender: IngestionSender;
  file: string;
  field: string;
  value: unknown;
}

/** One malformed date-time per case, in a real payload of the sender; the field is also what the 400 names. */
const CASES: Case[] = [
  { sender: 'metrics-alerts', file: 'captured.json', field: 'alerts.0.startsAt', value: 'not-a-date' },
  // The first alert is well formed: a payload is stored whole or not at all.
  { sender: 'metrics-alerts', file: 'captured-firing-2alerts.json', field: 'alerts.1.endsAt', value: 'soon' },
  {
    sender: 'codehost-c',
    file: 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json',
    field: 'happened_at',
    value: 'garbage',
  },
  {
    sender: 'codehost-c',
    file: 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json',
    field: 'workflow.created_at',
    value: 'garbage',
  },
  {
    sender: 'codehost-c',
    file: 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json',
    field: 'workflow.stopped_at',
    value: '2021-13-45T99:99:00Z',
  },
  {
    sender: 'codehost-c',
    file: 'docs-02-job-completed-github-oauth-bitbucket-cloud.json',
    field: 'job.started_at',
    value: 'a while ago',
  },
  { sender: 'paging', file: 'triggered_v3.json', field: 'event.occurred_at', value: 'yesterday' },
  { sender: 'paging', file: 'v2-01-incident_trigger.json', field: 'messages.0.incident.created_at', value: 'today' },
  { sender: 'orchestrator', file: 'event-09-Normal-Killing-Pod.json', field: 'firstTimestamp', value: 'garbage' },
  { sender: 'orchestrator', file: 'event-09-Normal-Killing-Pod.json', field: 'lastTimestamp', value: '19/05/2021' },
  { sender: 'orchestrator', file: 'event-02-Normal-Scheduled-Pod.json', field: 'eventTime', value: 'now' },
];

describe('date-times in sender payloads', () => {
  let client: TestClient;
  /** Sends the malformed payloads, so it must have nothing stored afterwards. */
  let tenant: Tenant;
  /** Sends well-formed payloads. */
  let other: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
    other = await createTenant(client, 'Other Co');
  });

  afterAll(() => client.stack.stop());

  const post = (sender: IngestionSender, body: unknown, headers: Record<string, string>) =>
    postRaw(client, sender, JSON.stringify(body), headers, { headers: tenant.keyHeaders });

  it.each(CASES)('$sender $field = $value is a 400 naming the field', async ({ sender, file, field, value }) => {
    const fixture = loadFixture(sender, file);
    const reply = await post(sender, withFields(fixture.body, { [field]: value }), fixture.headers);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ success: false, message: `Invalid ${sender} payload` });
    expect(reply.body.errors).toEqual([`${field}: ${INVALID}`]);
  });

  it('answers the generic webhook the same message', async () => {
    const reply = await client.request(
      'POST',
      `${INGESTION}/webhook`,
      { source: 's', title: 't', severity: 'low', status: 'firing', timestamp: 'yesterday' },
      tenant.keyHeaders,
    );
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.errors).toEqual([`timestamp: ${INVALID}`]);
  });

  it('stores nothing: no signal, no pipeline run, no change', async () => {
    expect(await listSignals(client, tenant.keyHeaders)).toEqual([]);
    expect(await listRuns(client, tenant.keyHeaders)).toEqual([]);
    expect(await listChanges(client, tenant.keyHeaders)).toEqual([]);
  });

  it('is the only thing wrong with those payloads: each is accepted as its sender wrote it', async () => {
    for (const { sender, file } of new Map(CASES.map((entry) => [entry.file, entry])).values()) {
      const fixture = loadFixture(sender, file);
      expectAccepted(await post(sender, fixture.body, fixture.headers));
    }
  });

  const postFixture = async (sender: IngestionSender, file: string, fields: Record<string, unknown> = {}) => {
    const fixture = loadFixture(sender, file);
    const raw = Object.keys(fields).length === 0 ? fixture.raw : JSON.stringify(withFields(fixture.body, fields));
    return expectAccepted(await postRaw(client, sender, raw, fixture.headers, { headers: other.keyHeaders }));
  };

  const signal = async (id: string) => {
    const reply = await client.request('GET', `${SIGNALS}/${id}`, undefined, other.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };

  it("reads Alertmanager's nanoseconds, and its zero endsAt of a firing alert as no end", async () => {
    const data = await postFixture('metrics-alerts', 'captured.json');
    const stored = await signal(data.signalId);
    expect(stored.triggeredAt).toBe('2026-11-22T02:00:16.633Z');
    expect(stored.metadata).not.toHaveProperty('endsAt');
  });

  it('reads Kubernetes null timestamps as absent and eventTime with microseconds', async () => {
    const data = await postFixture('orchestrator', 'event-02-Normal-Scheduled-Pod.json');
    expect((await signal(data.signalId)).triggeredAt).toBe('2021-05-19T09:42:58.638Z');
  });

  it('reads code host B times written `2023-01-10 13:50:02 UTC`', async () => {
    const data = await postFixture('codehost-b', 'job.json');
    const run = await client.request(
      'GET',
      `${PIPELINES}/${data.signals[0].pipelineRunId}`,
      undefined,
      other.keyHeaders,
    );
    expect(run.body.data.startedAt).toBe('2023-01-10T13:50:05.000Z');
  });

  it('keeps the code host C run as the workflow timed it', async () => {
    const data = await postFixture('codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json');
    const run = await client.request(
      'GET',
      `${PIPELINES}/${data.signals[0].pipelineRunId}`,
      undefined,
      other.keyHeaders,
    );
    expect(run.body.data).toMatchObject({
      startedAt: '2021-09-01T22:49:03.616Z',
      finishedAt: '2021-09-01T22:49:34.170Z',
      durationSeconds: 30.554,
    });
  });

  it('falls back to the time of receipt where the field is left out', async () => {
    const before = new Date().toISOString();
    const data = await postFixture('paging', 'triggered_v3.json', { 'event.occurred_at': undefined });
    const triggeredAt = (await signal(data.signalId)).triggeredAt as string;
    expect(triggeredAt >= before && triggeredAt <= new Date().toISOString()).toBe(true);
  });
});
