import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpReply, TestClient } from '../support/local-stack.ts';
import { startTestStack } from '../support/local-stack.ts';
import { createTenant, listChanges, listRuns, listSignals, postRaw, type Tenant } from './support.ts';

interface WebhookDefinition {
  name: string;
  examples: unknown[];
}

// The package is plain JSON behind a `main` entry, read the way it is published.
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];
const examples = definitions.flatMap(({ name, examples: bodies }) =>
  bodies.map((body, index) => ({ event: name, index, raw: JSON.stringify(body), deliveryId: randomUUID() })),
);

type Example = (typeof examples)[number];

const CHUNK = 30;

/** Posts the examples as GitHub would, `CHUNK` deliveries at a time. */
const postAll = async (
  client: TestClient,
  tenant: Tenant,
  deliveryIdOf: (example: Example) => string,
  set: readonly Example[] = examples,
): Promise<{ example: Example; reply: HttpReply }[]> => {
  const results: { example: Example; reply: HttpReply }[] = [];
  for (let start = 0; start < set.length; start += CHUNK) {
    const chunk = set.slice(start, start + CHUNK);
    results.push(
      ...(await Promise.all(
        chunk.map(async (example) => ({
          example,
          reply: await postRaw(
            client,
            'codehost-a',
            example.raw,
            {
              'user-agent': 'GitHub-Hookshot/a1b2c3d',
              'x-github-event': example.event,
              'x-github-delivery': deliveryIdOf(example),
              'x-github-hook-id': '109948940',
            },
            { headers: tenant.keyHeaders },
          ),
        })),
      )),
    );
  }
  return results;
};

const totals = async (client: TestClient, tenant: Tenant) => {
  const signals = await listSignals(client, tenant.keyHeaders);
  return {
    signals: signals.length,
    occurrences: signals.reduce((sum, signal) => sum + (signal.occurrences as number), 0),
    runs: (await listRuns(client, tenant.keyHeaders)).length,
    changes: (await listChanges(client, tenant.keyHeaders)).length,
  };
};

describe('the whole @octokit/webhooks-examples set through POST /ingestion/codehost-a', () => {
  let client: TestClient;
  let tenant: Tenant;
  let first: { example: Example; reply: HttpReply }[];
  let afterFirst: Awaited<ReturnType<typeof totals>>;

  beforeAll(async () => {
    client = await startTestStack();
    tenant = await createTenant(client);
    first = await postAll(client, tenant, (example) => example.deliveryId);
    afterFirst = await totals(client, tenant);
  }, 60_000);

  afterAll(() => client.stack.stop());

  it('accepts every one of the 329 payloads (no 4xx, no 5xx)', () => {
    expect(first).toHaveLength(329);
    const refused = first
      .filter(({ reply }) => reply.status !== 202)
      .map(({ example, reply }) => `${example.event}#${example.index}: ${reply.status} ${reply.text}`);
    expect(refused).toEqual([]);
  });

  it('stores signals, runs and changes from them', () => {
    expect(afterFirst.signals).toBeGreaterThan(100);
    expect(afterFirst.occurrences).toBe(329);
    expect(afterFirst.runs).toBeGreaterThan(0);
    expect(afterFirst.changes).toBeGreaterThan(0);
  });

  it('counts a redelivery (the same X-GitHub-Delivery) once', async () => {
    // Every fourth delivery is enough to show it, and keeps the file quick.
    const redelivered = first.filter((_result, index) => index % 4 === 0);
    const again = await postAll(
      client,
      tenant,
      (example) => example.deliveryId,
      redelivered.map(({ example }) => example),
    );
    again.forEach(({ reply }, index) => {
      expect(reply.status, reply.text).toBe(202);
      expect(reply.body.data).toMatchObject({
        deduplicated: true,
        signalId: redelivered[index]?.reply.body.data.signalId,
      });
    });
    expect(await totals(client, tenant)).toEqual(afterFirst);
  });

  it('merges the same stream sent again as new deliveries: only occurrences grow', async () => {
    const resent = await postAll(client, tenant, () => randomUUID());
    expect(resent.every(({ reply }) => reply.status === 202)).toBe(true);
    expect(await totals(client, tenant)).toEqual({ ...afterFirst, occurrences: 2 * 329 });
  }, 60_000);
});
