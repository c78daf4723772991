import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MemoryReport } from '#infra/local/local-memory.ts';
import { createTenant, SIGNALS, type Tenant } from '../ingestion-routes/support.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

/**
 * Issue 49: dynalite 4.0.0 left the LevelDB iterator of every Query open (on disk, each holds its snapshot
 * and blocks in native memory), so a long-running `npm start` grew without end. patches/dynalite+4.0.0.patch,
 * applied by `npm ci`, closes them; the store's thread counts them for `GET /_local/metrics`.
 */
let dir: string;
let client: TestClient;
let tenant: Tenant;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-iterators-'));
  client = await startTestStack(join(dir, 'data'));
  tenant = await createTenant(client, 'Iterating Co');
  const signals = Array.from({ length: 30 }, (_, n) => ({ name: `listed ${n}`, source: 'bench', severity: 'LOW' }));
  const reply = await client.request('POST', `${SIGNALS}/bulk`, { signals }, tenant.keyHeaders);
  expect(reply.status, reply.text).toBe(200);
});
afterAll(async () => {
  await client.stack.stop();
  await rm(dir, { recursive: true, force: true });
});

const memory = async (): Promise<MemoryReport> => {
  const reply = await client.request('GET', '/_local/metrics');
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data.memory;
};

it('closes every LevelDB iterator its Queries opened, cut short by a limit or read to the end', async () => {
  const before = (await memory()).threads.dynamodb.iterators?.opened ?? 0;
  // Page 1 stops the Query at its limit; page 3 also reads the keys before it; a page past the end reads all.
  const paths = [`${SIGNALS}?limit=5`, `${SIGNALS}?limit=5&page=3`, `${SIGNALS}?limit=50&page=2`];
  for (let round = 0; round < 40; round += 1) {
    const replies = await Promise.all(paths.map((path) => client.request('GET', path, undefined, tenant.keyHeaders)));
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
  }

  await expect.poll(async () => (await memory()).threads.dynamodb.iterators?.open, { timeout: 2_000 }).toBe(0);
  expect((await memory()).threads.dynamodb.iterators?.opened).toBeGreaterThanOrEqual(before + 3 * 40);
});

it("reports the process's resident memory and each thread's heap", async () => {
  const { residentBytes, threads } = await memory();
  expect(residentBytes).toBeGreaterThan(0);
  for (const thread of [threads.main, threads.dynamodb, threads.sqs]) {
    expect(thread.heapUsedBytes).toBeGreaterThan(0);
    expect(thread.heapTotalBytes).toBeGreaterThanOrEqual(thread.heapUsedBytes);
  }
  // Each thread has a heap of its own: the store's is not the main thread's.
  expect(threads.dynamodb.heapTotalBytes).not.toBe(threads.main.heapTotalBytes);
  expect(threads.sqs.iterators).toBeUndefined();
});
