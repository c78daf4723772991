import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPorts } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { DELIVERY_LEASE_MS } from '#lib/signals/delivery-claim.ts';
import { loadFixture, withFields } from '../ingestion/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';
import { SIGNALS, createTenant, expectAccepted, postRaw, type Tenant } from './support.ts';

type Command = { input: Record<string, any> };

/** The process dying between the delivery claim and the signal write: the signal's Put never happens. */
const diesBeforeSignalWrite = (runtime: Ports): Ports => ({
  ...runtime,
  table: {
    name: runtime.table.name,
    doc: {
      send: (command: Command, ...rest: unknown[]) => {
        const putsSignal = command.constructor.name === 'PutCommand' && String(command.input.Item?.pk).endsWith('#SIG');
        if (putsSignal) return Promise.reject(Object.assign(new Error('process killed'), { name: 'ProcessKilled' }));
        return (runtime.table.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      },
    } as unknown as DynamoDBDocumentClient,
  },
});

/** The stack's runtime with its clock moved on by `ms`. */
const later = (runtime: Ports, ms: number): Ports => ({
  ...runtime,
  clock: { now: () => new Date(runtime.clock.now().getTime() + ms) },
});

describe('a delivery interrupted between its claim and its write', () => {
  let client: TestClient;
  let tenant: Tenant;
  let runtime: Ports;
  const pagerDuty = loadFixture('paging', 'triggered_v3.json');

  const deliver = (deliveryId: string, raw = pagerDuty.raw) =>
    postRaw(
      client,
      'paging',
      raw,
      { ...pagerDuty.headers, 'x-webhook-id': deliveryId },
      { headers: tenant.keyHeaders },
    );

  const signalCount = async (): Promise<number> =>
    (await client.request('GET', `${SIGNALS}?source=paging&limit=1`, undefined, tenant.admin.auth)).body
      .total as number;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
    runtime = client.stack.ports;
  });
  afterAll(() => {
    installPorts(runtime);
    return client.stack.stop();
  });

  it('is never answered 2xx before its signal is stored, and is stored by a redelivery once the lease is over', async () => {
    const deliveryId = randomUUID();
    installPorts(diesBeforeSignalWrite(runtime));
    try {
      expect((await deliver(deliveryId)).status).toBe(500);
    } finally {
      installPorts(runtime);
    }
    const before = await signalCount();

    // At once: the claim may still belong to a live attempt, so the sender is asked to come back.
    const early = await deliver(deliveryId);
    expect(early.status, early.text).toBe(503);
    expect(early.body).toMatchObject({ success: false, errors: [expect.stringContaining('is in progress')] });
    const retryAfter = Number(early.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(DELIVERY_LEASE_MS / 1000);
    expect(await signalCount()).toBe(before);

    // After Retry-After the claim is stale: this attempt takes it over and stores the event.
    installPorts(later(runtime, retryAfter * 1000));
    try {
      const stored = expectAccepted(await deliver(deliveryId));
      expect(stored.deduplicated).toBe(false);
      const signal = await client.request('GET', `${SIGNALS}/${stored.signalId}`, undefined, tenant.admin.auth);
      expect(signal.status, signal.text).toBe(200);
      expect(signal.body.data.occurrences).toBe(1);

      const again = expectAccepted(await deliver(deliveryId));
      expect(again).toMatchObject({ signalId: stored.signalId, deduplicated: true });
      expect(await signalCount()).toBe(before + 1);
    } finally {
      installPorts(runtime);
    }
  });
});

describe('delivery ids longer than a key may hold', () => {
  let client: TestClient;
  let tenant: Tenant;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
  });
  afterAll(() => client.stack.stop());

  const occurrences = async (signalId: string): Promise<number> =>
    (await client.request('GET', `${SIGNALS}/${signalId}`, undefined, tenant.admin.auth)).body.data
      .occurrences as number;

  it('are keyed by their hash: a 2 KB header id counts once', async () => {
    const pagerDuty = loadFixture('paging', 'triggered_v3.json');
    const headers = { ...pagerDuty.headers, 'x-webhook-id': `${randomUUID()}${'x'.repeat(2048)}` };
    const first = expectAccepted(
      await postRaw(client, 'paging', pagerDuty.raw, headers, { headers: tenant.keyHeaders }),
    );
    const retry = expectAccepted(
      await postRaw(client, 'paging', pagerDuty.raw, headers, { headers: tenant.keyHeaders }),
    );
    expect(retry).toMatchObject({ signalId: first.signalId, deduplicated: true });
    expect(await occurrences(first.signalId)).toBe(1);
  });

  it('are keyed by their hash: a 100 KB body id counts once, and differs from another long id', async () => {
    const circleci = loadFixture('codehost-c', 'docs-01-workflow-completed-github-oauth-bitbucket-cloud.json');
    const longId = `${'é'.repeat(50_000)}-${randomUUID()}`;
    const raw = JSON.stringify(withFields(circleci.body, { id: longId }));
    const first = expectAccepted(
      await postRaw(client, 'codehost-c', raw, circleci.headers, { headers: tenant.keyHeaders }),
    );
    const retry = expectAccepted(
      await postRaw(client, 'codehost-c', raw, circleci.headers, { headers: tenant.keyHeaders }),
    );
    expect(retry).toMatchObject({ signalId: first.signalId, deduplicated: true });

    expect(await occurrences(first.signalId)).toBe(1);

    // Another long id is another delivery of the same event: it merges, one more occurrence.
    const other = JSON.stringify(withFields(circleci.body, { id: `${longId}-other` }));
    expectAccepted(await postRaw(client, 'codehost-c', other, circleci.headers, { headers: tenant.keyHeaders }));
    expect(await occurrences(first.signalId)).toBe(2);
  });
});
