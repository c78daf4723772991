import { performance } from 'node:perf_hooks';
import { startLocalStack } from '#infra/local/local-stack.ts';

/**
 * Latency of representative requests through the whole local stack (HTTP, middlewares, embedded
 * DynamoDB), sequential, after a warm-up. Figures go to docs/performance.md with this command.
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
process.env.LOG_LEVEL ??= 'warn';
const stack = await startLocalStack({
  port: 0,
  dataDir: ':memory:',
  rateLimits: 'global=1000000/1m,login=1000000/1m,email=1000000/1m,apikey=1000000/1m',
});

/** DynamoDB operations by kind, counted on the table's client: what a request costs on demand. */
const READS = new Set(['GetCommand', 'GetItemCommand', 'QueryCommand', 'BatchGetCommand', 'BatchGetItemCommand']);
const operations = { reads: 0, writes: 0 };
stack.ports.table.doc.middlewareStack.add(
  (next, context) => async (args) => {
    if (READS.has(context.commandName ?? '')) operations.reads += 1;
    else operations.writes += 1;
    return next(args);
  },
  { step: 'initialize', name: 'benchOperationCounter' },
);

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data?: any };
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
};

const measure = async (name: string, iterations: number, run: (index: number) => Promise<unknown>) => {
  for (let index = 0; index < Math.min(20, iterations); index += 1) await run(-1 - index);
  const samples: number[] = [];
  operations.reads = 0;
  operations.writes = 0;
  const started = performance.now();
  for (let index = 0; index < iterations; index += 1) {
    const before = performance.now();
    await run(index);
    samples.push(performance.now() - before);
  }
  const elapsed = performance.now() - started;
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
  return {
    name,
    iterations,
    p50ms: at(0.5),
    p95ms: at(0.95),
    perSecond: Math.round((iterations / elapsed) * 1000),
    readsPerRequest: (operations.reads / iterations).toFixed(1),
    writesPerRequest: (operations.writes / iterations).toFixed(1),
  };
};

const email = 'bench@example.com';
const password = 'benchmark password';
await call('POST', '/api/v1/auth/business/register', {
  businessName: 'Bench',
  firstName: 'B',
  lastName: 'M',
  email,
  password,
});
const otp = (await call('GET', `/_local/mailbox?to=${email}`))[0].otp as string;
await call('POST', '/api/v1/auth/verify_email', { email, otp });
const { accessToken } = await call('POST', '/api/v1/auth/login', { email, password });
const auth = { authorization: `Bearer ${accessToken}` };
const { key } = await call(
  'POST',
  '/api/v1/apikey/createapikey',
  { name: 'bench', environment: 'PRODUCTION', scopes: ['incidents:read', 'incidents:write', 'ingestion:write'] },
  auth,
);
const keyAuth = { 'x-api-key': key as string };

const results = [
  await measure('GET /health', ITERATIONS, () => call('GET', '/api/v1/health')),
  await measure('POST /auth/login (scrypt)', Math.min(ITERATIONS, 50), () =>
    call('POST', '/api/v1/auth/login', { email, password }),
  ),
  await measure('POST /incident-ticket (Bearer)', ITERATIONS, (n) =>
    call('POST', '/api/v1/incident-ticket', { summary: `bench ${n}`, priority: 'LOW' }, auth),
  ),
  await measure('GET /incident-ticket?limit=20 (API key)', ITERATIONS, () =>
    call('GET', '/api/v1/incident-ticket?limit=20', undefined, keyAuth),
  ),
  await measure('POST /signals, new fingerprints (API key)', ITERATIONS, (n) =>
    call('POST', '/api/v1/signals', { name: `bench signal ${n}`, source: 'bench', severity: 'LOW' }, keyAuth),
  ),
  await measure('POST /signals, one fingerprint (dedup)', ITERATIONS, () =>
    call('POST', '/api/v1/signals', { name: 'repeated', source: 'bench', severity: 'LOW' }, keyAuth),
  ),
];
await stack.stop();

console.log(`node ${process.version}, ${ITERATIONS} sequential requests each after 20 warm-up ones, DATA_DIR=:memory:`);
console.table(results);
