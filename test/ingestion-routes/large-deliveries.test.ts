import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as ingestionWorker } from '#functions/ingestion-worker/index.ts';
import { startQueuePoller, type QueuePoller } from '#infra/local/queue-poller.ts';
import { MAX_EVENTS_STORED_WHILE_WAITING } from '#lib/ingestion/ingest-delivery.ts';
import { drainQueue, queueDepth, withThrottledStore, writesSignalStore } from '../signals/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { INGESTION, SIGNALS, createTenant, expectAccepted, listSignals, type Tenant } from './support.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Text of `bytes` bytes that no compression or deduplication could mistake for another. */
const filler = (bytes: number, seed: string): string => `${seed}:`.padEnd(bytes, `${seed}-0123456789abcdef`);

const firing = (title: string, metadata: Record<string, unknown>) => ({
  source: 'batch-job',
  title,
  severity: 'high',
  status: 'firing',
  metadata,
});

const alert = (name: string, annotations: Record<string, string> = { summary: `${name} fired` }) => ({
  status: 'firing',
  labels: { alertname: name, severity: 'info', env: 'prod' },
  annotations,
  startsAt: '2030-01-01T00:00:00Z',
  generatorURL: 'http://prometheus:9090/graph',
  fingerprint: Buffer.from(name).toString('hex'),
});

const notification = (alerts: object[]) => ({
  version: '4',
  receiver: 'ops',
  status: 'firing',
  groupKey: '{}:{}',
  alerts,
});

describe('large deliveries', () => {
  let client: TestClient;
  let poller: QueuePoller | undefined;

  const post = (tenant: Tenant, sender: string, body: unknown) =>
    client.request('POST', `${INGESTION}/${sender}`, JSON.stringify(body), tenant.keyHeaders);
  const getSignal = async (tenant: Tenant, id: string) => {
    const reply = await client.request('GET', `${SIGNALS}/${id}`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };
  const stats = async (tenant: Tenant) =>
    (await client.request('GET', `${SIGNALS}/stats`, undefined, tenant.keyHeaders)).body.data;
  /** Runs the ingestion worker until its queue is empty, as Lambda's SQS trigger would. */
  const runIngestionWorker = async (): Promise<void> => {
    poller = startQueuePoller({ sqs: client.stack.queues, queue: 'ingestion', handler: ingestionWorker });
    await poller.idle();
    await poller.stop();
    poller = undefined;
  };

  beforeAll(async () => {
    client = await startTestStack();
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
  });
  afterAll(() => client.stack.stop());

  it('accepts a 3.9 MiB generic webhook under the 4 MiB limit and answers the whole payload on GET one signal', async () => {
    const tenant = await createTenant(client, 'Big Webhook');
    const metadata = { blob: filler(3.9 * MiB, 'webhook'), host: 'db-1' };
    const reply = await post(tenant, 'webhook', firing('Nightly export failed', metadata));
    const { signalId } = expectAccepted(reply);

    const signal = await getSignal(tenant, signalId);
    expect(signal.metadata.blob).toBe(metadata.blob);
    expect(signal.metadata).toMatchObject({ host: 'db-1', origin: 'batch-job', originalSeverity: 'high' });
  });

  it('accepts a 3.9 MiB Alertmanager body, each alert whole on GET one signal', async () => {
    const tenant = await createTenant(client, 'Big Alerts');
    const descriptions = ['a', 'b', 'c'].map((seed) => filler(1.3 * MiB - 2 * KiB, seed));
    const alerts = descriptions.map((description, index) => alert(`StackTrace${index}`, { description }));
    const reply = await post(tenant, 'metrics-alerts', notification(alerts));
    const data = expectAccepted(reply);
    expect(data.signals).toHaveLength(3);

    for (const [index, { signalId }] of (data.signals as { signalId: string }[]).entries()) {
      const signal = await getSignal(tenant, signalId);
      expect(signal.metadata.annotations.description).toBe(descriptions[index]);
      expect(signal.metadata.labels).toEqual(alerts[index]!.labels);
    }
  });

  it('accepts an alert with one 300 KB annotation, which Alertmanager would otherwise retry forever', async () => {
    const tenant = await createTenant(client, 'One Big Annotation');
    const runbook = filler(300 * 1000, 'runbook');
    const data = expectAccepted(
      await post(tenant, 'metrics-alerts', notification([alert('DiskFull', { summary: 'disk full', runbook })])),
    );
    const signal = await getSignal(tenant, data.signalId);
    expect(signal.metadata.annotations.runbook).toBe(runbook);
    expect(signal.metadata.summary).toBe('disk full');
  });

  it('stores a payload whatever its nesting and numbers, which a DynamoDB map would refuse', async () => {
    const tenant = await createTenant(client, 'Odd Payloads');
    let nested: Record<string, unknown> = { leaf: true };
    for (let depth = 0; depth < 40; depth += 1) nested = { level: nested };
    // biome-ignore lint/correctness/noPrecisionLoss: a number JSON cannot carry exactly is the point of the test
    const metadata = { nested, huge: 1e300, tiny: 5e-324, digits: 12345678901234567890123456789012345678901234567890 };
    const { signalId } = expectAccepted(await post(tenant, 'webhook', firing('Odd payload', metadata)));
    expect((await getSignal(tenant, signalId)).metadata).toMatchObject(metadata);
  });

  it('cuts a name longer than a headline and keeps the whole of it in metadata', async () => {
    const tenant = await createTenant(client, 'Long Titles');
    const title = filler(2 * MiB, 'title');
    const { signalId } = expectAccepted(await post(tenant, 'webhook', firing(title, {})));
    const signal = await getSignal(tenant, signalId);
    expect(signal.name).toHaveLength(500);
    expect(title.startsWith(signal.name.slice(0, -1))).toBe(true);
    expect(signal.metadata.fullName).toBe(title);
    // The same title again is the same problem.
    expect(expectAccepted(await post(tenant, 'webhook', firing(title, {}))).deduplicated).toBe(true);
  });

  it('lists twenty ~350 KB signals as summaries, far under the 6 MB a Lambda response may hold', async () => {
    const tenant = await createTenant(client, 'Many Big Signals');
    for (let index = 0; index < 20; index += 1) {
      expectAccepted(
        await post(tenant, 'webhook', firing(`Big job ${index}`, { log: filler(350 * 1000, `log${index}`) })),
      );
    }
    const reply = await client.request('GET', `${SIGNALS}?limit=20`, undefined, tenant.keyHeaders);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toHaveLength(20);
    expect(Buffer.byteLength(reply.text)).toBeLessThan(64 * KiB);
    for (const summary of reply.body.data) {
      expect(summary).not.toHaveProperty('metadata');
      expect(summary).toMatchObject({ source: 'webhook', severity: 'HIGH', status: 'OPEN', occurrences: 1 });
      expect(Object.keys(summary)).toEqual(
        expect.arrayContaining(['id', 'name', 'type', 'serviceId', 'value', 'triggeredAt', 'createdAt']),
      );
    }
  });

  it('stores every alert of a batch it queued under the id answered, and a retry of the batch counts nothing twice', async () => {
    const tenant = await createTenant(client, 'Alert Group');
    const alerts = Array.from({ length: MAX_EVENTS_STORED_WHILE_WAITING + 50 }, (_unused, index) =>
      alert(`Group${index}`),
    );
    const data = expectAccepted(await post(tenant, 'metrics-alerts', notification(alerts)));
    const answered = new Set(
      data.signals.map((entry: { signalId: string; queued?: boolean }) => entry.queued && entry.signalId),
    );
    expect(answered.size).toBe(alerts.length);

    await runIngestionWorker();
    expect(await stats(tenant)).toMatchObject({ total: alerts.length, open: alerts.length });
    const stored = await listSignals(client, tenant.keyHeaders);
    expect(new Set(stored.map((signal) => signal.id))).toEqual(answered);

    // Alertmanager sends the same notification again (it never saw the 202): the same signals, one more occurrence each.
    expectAccepted(await post(tenant, 'metrics-alerts', notification(alerts)));
    await runIngestionWorker();
    expect(await stats(tenant)).toMatchObject({ total: alerts.length, open: alerts.length });
    const again = await listSignals(client, tenant.keyHeaders);
    expect(again).toHaveLength(alerts.length);
    expect(again.every((signal) => signal.occurrences === 2)).toBe(true);
  }, 60_000);

  it('queues a large event the table refuses as an object beside its message, and the worker stores it whole', async () => {
    const tenant = await createTenant(client, 'Busy Table');
    const metadata = { dump: filler(1 * MiB, 'dump') };
    const reply = await withThrottledStore(client.stack.ports, writesSignalStore, () =>
      post(tenant, 'webhook', firing('Heap dump', metadata)),
    );
    const { signalId } = expectAccepted(reply);
    expect(await queueDepth(client.stack.queues, 'ingestion')).toBe(1);
    const [message] = await drainQueue(client.stack.queues, 'ingestion');
    // The message names the object instead of carrying the event: SQS takes at most 256 KiB.
    expect(Buffer.byteLength(message!)).toBeLessThan(4 * KiB);
    expect(JSON.parse(message!).eventObject).toMatch(new RegExp(`^${tenant.admin.user.businessId}/`));

    await client.stack.queues.client.send(
      new SendMessageCommand({ QueueUrl: client.stack.queues.queueUrl('ingestion'), MessageBody: message! }),
    );
    await runIngestionWorker();
    expect((await getSignal(tenant, signalId)).metadata.dump).toBe(metadata.dump);
  });

  // Last: it leaves 3,000 messages on the ingestion queue, which the worker stores at its own pace (the test
  // above drains a smaller batch through the same path).
  it('answers a 3,000-alert notification within seconds, every alert durably queued with its own signal id', async () => {
    const tenant = await createTenant(client, 'Alert Storm');
    const alerts = Array.from({ length: 3000 }, (_unused, index) => alert(`Storm${index}`));
    const started = Date.now();
    const data = expectAccepted(await post(tenant, 'metrics-alerts', notification(alerts)));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(data.signals).toHaveLength(3000);
    expect(new Set(data.signals.map((entry: { signalId: string }) => entry.signalId)).size).toBe(3000);
    expect(data.signals.every((entry: { queued?: boolean }) => entry.queued === true)).toBe(true);
    expect(await queueDepth(client.stack.queues, 'ingestion')).toBe(3000);
  }, 60_000);
});
