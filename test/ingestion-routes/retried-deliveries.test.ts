import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
import { loadFixture } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, createTenant, expectAccepted, postRaw, type Tenant } from './support.ts';

/**
 * DECISIONS.md: "Retries of the same delivery always deduplicate", and a retry is not a new occurrence. These
 * senders name what they deliver in the body (a monitoring event's `id`, a Kubernetes Event's uid and
 * resourceVersion, a paging-tool v2 message's `id`, a v3 event's `id`), so their retries count once too.
 */
describe('a retried delivery is counted once, for senders that name it in the body', () => {
  let client: TestClient;
  let tenant: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });

  afterAll(() => client.stack.stop());

  const post = async (sender: IngestionSender, raw: string, headers: Record<string, string>) =>
    expectAccepted(await postRaw(client, sender, raw, headers, { headers: tenant.keyHeaders }));

  const occurrencesOf = async (signalId: string): Promise<number> => {
    const reply = await client.request('GET', `${SIGNALS}/${signalId}`, undefined, tenant.keyHeaders);
    expect(reply.status).toBe(200);
    return reply.body.data.occurrences;
  };

  const retryCountsOnce = async (sender: IngestionSender, raw: string, headers: Record<string, string>) => {
    const first = await post(sender, raw, headers);
    const retry = await post(sender, raw, headers);
    expect(retry.signalId).toBe(first.signalId);
    expect(retry.deduplicated).toBe(true);
    expect(await occurrencesOf(first.signalId)).toBe(1);
    return first.signalId as string;
  };

  it('monitoring: the same event id is one occurrence, a new id another', async () => {
    const template = loadFixture('monitoring', 'default-payload-template.json');
    const signalId = await retryCountsOnce('monitoring', template.raw, template.headers);
    const next = JSON.stringify({ ...(template.body as Record<string, unknown>), id: '1234567' });
    expect((await post('monitoring', next, template.headers)).signalId).toBe(signalId);
    expect(await occurrencesOf(signalId)).toBe(2);
  });

  it('orchestrator: the same version of an Event is one occurrence, its next version another', async () => {
    const event = loadFixture('orchestrator', 'event-09-Normal-Killing-Pod.json');
    const signalId = await retryCountsOnce('orchestrator', event.raw, event.headers);
    const body = event.body as { metadata: Record<string, unknown>; count: number };
    const repeated = JSON.stringify({ ...body, count: 2, metadata: { ...body.metadata, resourceVersion: '5361690' } });
    expect((await post('orchestrator', repeated, event.headers)).signalId).toBe(signalId);
    expect(await occurrencesOf(signalId)).toBe(2);
  });

  it('paging v2: each message counts once, even sent again in another batch', async () => {
    const trigger = loadFixture('paging', 'v2-01-incident_trigger.json');
    const signalId = await retryCountsOnce('paging', trigger.raw, trigger.headers);
    const messages = (trigger.body as { messages: Record<string, unknown>[] }).messages;
    const update = { ...messages[0], id: 'a-later-message', event: 'incident.acknowledge' };
    const batch = await post('paging', JSON.stringify({ messages: [messages[0], update] }), trigger.headers);
    expect(batch.signals.map((entry: { signalId: string }) => entry.signalId)).toEqual([signalId, signalId]);
    expect(batch.signals[0].deduplicated).toBe(true);
    expect(await occurrencesOf(signalId)).toBe(2);
  });

  it('paging v3 without X-Webhook-Id: the event id names the delivery', async () => {
    const triggered = loadFixture('paging', 'triggered_v3.json');
    const { 'x-webhook-id': _id, ...headers } = triggered.headers;
    await retryCountsOnce('paging', triggered.raw, headers);
  });
});
