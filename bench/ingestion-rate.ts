import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalStack } from '#infra/local/local-stack.ts';

/**
 * Ingestion throughput against the store's own in one run (docs/performance.md): the local stack with its
 * table on disk, first raw PutItems through the table's client, then paging-tool deliveries through
 * HTTP, the authorizer, normalizing, dedup, the store and the correlation queue, IN_FLIGHT at a time.
 */
const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const IN_FLIGHT = 16;
process.env.LOG_LEVEL ??= 'warn';
const dataDir = await mkdtemp(join(tmpdir(), 'ingestion-rate-'));
const stack = await startLocalStack({
  port: 0,
  dataDir,
  rateLimits: 'global=1000000/1m,login=1000000/1m,email=1000000/1m,apikey=1000000/1m',
});

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data?: any };
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
};

/** `count` runs of `run`, `IN_FLIGHT` at once: runs per second and the latency percentiles. */
const rate = async (name: string, count: number, run: (index: number) => Promise<unknown>) => {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        const before = performance.now();
        await run(index);
        samples.push(performance.now() - before);
      }
    }),
  );
  const elapsed = performance.now() - started;
  samples.sort((a, b) => a - b);
  const at = (q: number) => Number(samples[Math.floor(q * (samples.length - 1))]?.toFixed(1));
  return { name, count, perSecond: Math.round((count / elapsed) * 1000), p50ms: at(0.5), p95ms: at(0.95) };
};

const email = 'rate@example.com';
const password = 'benchmark password';
await call('POST', '/api/v1/auth/business/register', {
  businessName: 'Rate',
  firstName: 'R',
  lastName: 'B',
  email,
  password,
});
const otp = (await call('GET', `/_local/mailbox?to=${email}`))[0].otp as string;
await call('POST', '/api/v1/auth/verify_email', { email, otp });
const { accessToken } = await call('POST', '/api/v1/auth/login', { email, password });
const { key } = await call(
  'POST',
  '/api/v1/apikey/createapikey',
  { name: 'rate', environment: 'PRODUCTION', scopes: ['ingestion:write'] },
  { authorization: `Bearer ${accessToken}` },
);
const fixture = JSON.parse(
  await readFile(new URL('../test/fixtures/ingestion/paging/triggered_v3.json', import.meta.url), 'utf8'),
) as { event: { data: Record<string, unknown> } };
const deliver = (incidentId: string) => {
  const body = { event: { ...fixture.event, data: { ...fixture.event.data, id: incidentId } } };
  return call('POST', '/api/v1/ingestion/paging', JSON.stringify(body), {
    'x-api-key': key,
    'x-webhook-id': randomUUID(),
  });
};

const { table } = stack.ports;
const raw = await rate('raw PutItem', COUNT, (index) =>
  table.doc.send(
    new PutCommand({ TableName: table.name, Item: { pk: 'BENCH', sk: `${index}`, value: 'x'.repeat(200) } }),
  ),
);
await rate('warm-up', 100, (index) => deliver(`warm-${index}`));
const fresh = await rate('ingestion, new signals', COUNT, (index) => deliver(`new-${index}`));
const repeated = await rate('ingestion, duplicates', COUNT, (index) => deliver(`new-${index % 50}`));
await stack.stop();
await rm(dataDir, { recursive: true, force: true });

console.log(`node ${process.version}, ${COUNT} each, ${IN_FLIGHT} in flight, table on disk`);
console.table([raw, fresh, repeated].map((row) => ({ ...row, ofRaw: (row.perSecond / raw.perSecond).toFixed(2) })));
