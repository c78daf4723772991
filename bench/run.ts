import '#infra/local/quiet-sdk-notice.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ADMIN, startBenchService, startBenchServiceProcess } from './bench-service.ts';
import { DUPLICATE_FINGERPRINTS, prepareIngestion } from './ingestion-probe.ts';
import { runConcurrently, type Rate } from './load.ts';
import { countOperations, type OperationCount } from './store-operations.ts';
import { rawPutRate } from './store-rate.ts';
import { measureBundles } from './bundles.ts';
import { measureAlertStorm } from './alert-storm.ts';
import { printAlertStorm, STEADY_RATE, STORM_SHAPE } from './storm-shape.ts';
import { runSideBySide } from './side-by-side.ts';
import { parseSoakOptions, runSoak } from './soak.ts';

// `npm run bench -- soak [--minutes N]`: the long steady run of bench/soak.ts instead of the figures below.
if (process.argv[2] === 'soak') {
  await runSoak(parseSoakOptions(process.argv.slice(3)));
  process.exit(0);
}

/**
 * `npm run bench`: every figure of docs/performance.md in one run, so each path is a ratio to the
 * embedded store's raw rate measured minutes apart on the same machine (absolute times are noisy here),
 * and the alert storm with its queue workers running (bench/alert-storm.ts).
 * BENCH_SCALE=0.1 runs a tenth of everything, for a quick look.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const scaled = (count: number) => Math.max(20, Math.round(count * SCALE));
const IN_FLIGHT = 16;
const CORES = availableParallelism();
const LIST_ITEMS = scaled(10_000);
process.env.LOG_LEVEL ??= 'silent';

// `npm run bench -- --against <commit>`: new-signal ingestion of this tree and of that commit, side by side.
const against = process.argv.indexOf('--against');
if (against !== -1) {
  const commit = process.argv[against + 1];
  if (!commit) throw new Error('usage: npm run bench -- --against <commit>');
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const storms = Number(process.env.BENCH_STORMS ?? 0);
  await runSideBySide({ commit, requests: scaled(1000), rounds, inFlight: IN_FLIGHT, sequential: scaled(200), storms });
  process.exit(0);
}

const work = await mkdtemp(join(tmpdir(), 'incident-bench-'));
const raw = await rawPutRate(join(work, 'raw'), scaled(3000), IN_FLIGHT);
const rawIndexed = await rawPutRate(join(work, 'raw-indexed'), scaled(3000), IN_FLIGHT, { indexed: true });

// Throughput: the service in a process of its own, the load generated here, as senders are elsewhere.
const measured = await startBenchServiceProcess(join(work, 'throughput'));
const throughput = await (async () => {
  const { ingest } = await prepareIngestion(measured.call);
  const timed = async (name: string, total: number, run: (n: number) => Promise<unknown>) => {
    const before = { service: await measured.cpu(), bench: process.cpuUsage() };
    const rate = await runConcurrently(total, IN_FLIGHT, run);
    const after = await measured.cpu();
    const bench = process.cpuUsage(before.bench);
    const perRequest = (ms: number) => Number((ms / total).toFixed(2));
    const { handlers: handlersBefore } = before.service;
    return {
      name,
      rate,
      serviceCpuMs: perRequest(after.total - before.service.total),
      handlersThreadCpuMs:
        after.handlers === undefined || handlersBefore === undefined
          ? undefined
          : perRequest(after.handlers - handlersBefore),
      loadCpuMs: perRequest((bench.user + bench.system) / 1000),
    };
  };
  return [
    await timed('ingestion, new signal (Alertmanager, API key)', scaled(1500), (n) => ingest(`new-${n}`)),
    await timed('ingestion, duplicate (same fingerprints again)', scaled(1500), (n) =>
      ingest(`repeat-${n % DUPLICATE_FINGERPRINTS}`),
    ),
  ];
})();
await measured.stop();

// Store operations and list latency: the service in this process, where the SDK client can be counted.
const { stack, call } = await startBenchService(join(work, 'counted'));
const operations = await countOperations(stack.ports.table);
const { auth, keyAuth, ingest } = await prepareIngestion(call);
const { email, password } = BENCH_ADMIN;

const perRequest = async (name: string, calls: number, run: (n: number) => Promise<unknown>) => ({
  name,
  ...(await operations.per(calls, run, () => stack.deliveriesIdle())),
});

// While the instance remembers the fingerprints it just stored, as a busy sender's Lambda does.
const ingestionCounts = [
  await perRequest('POST /ingestion/metrics-alerts, new signal', 50, (n) => ingest(`counted-${n}`)),
  await perRequest('POST /ingestion/metrics-alerts, duplicate', 50, (n) =>
    ingest(`repeat-${n % DUPLICATE_FINGERPRINTS}`),
  ),
];

// Lists over LIST_ITEMS signals and incidents, written through the API.
await runConcurrently(Math.ceil(LIST_ITEMS / 100), 4, (batch) =>
  call(
    'POST',
    '/api/v1/signals/bulk',
    {
      signals: Array.from({ length: 100 }, (_, n) => ({
        name: `listed ${batch}-${n}`,
        source: 'bench',
        severity: 'LOW',
      })),
    },
    keyAuth,
  ),
);
await runConcurrently(LIST_ITEMS, IN_FLIGHT, (n) =>
  call('POST', '/api/v1/incident-ticket', { summary: `listed ${n}`, priority: 'LOW' }, auth),
);

// The notifications the incidents queued are delivered before anything is timed or counted.
await stack.deliveriesIdle();

const latency = async (path: string, headers: Record<string, string>) =>
  runConcurrently(scaled(100), 1, () => call('GET', path, undefined, headers));
const lists = [
  { name: `GET /signals?limit=20, page 1 of ${LIST_ITEMS}`, rate: await latency('/api/v1/signals?limit=20', keyAuth) },
  { name: 'GET /signals?limit=20&page=50', rate: await latency('/api/v1/signals?limit=20&page=50', keyAuth) },
  {
    name: `GET /incident-ticket?limit=20, page 1 of ${LIST_ITEMS}`,
    rate: await latency('/api/v1/incident-ticket?limit=20', auth),
  },
  {
    name: 'GET /incident-ticket?limit=20&page=50',
    rate: await latency('/api/v1/incident-ticket?limit=20&page=50', auth),
  },
];

const counted: ({ name: string } & OperationCount)[] = [
  ...ingestionCounts,
  await perRequest('GET /health', 50, () => call('GET', '/api/v1/health')),
  await perRequest('POST /auth/login', 10, () => call('POST', '/api/v1/auth/login', { email, password })),
  await perRequest('POST /incident-ticket (Bearer)', 50, (n) =>
    call('POST', '/api/v1/incident-ticket', { summary: `counted ${n}`, priority: 'LOW' }, auth),
  ),
  await perRequest('GET /signals?limit=20, page 1', 20, () =>
    call('GET', '/api/v1/signals?limit=20', undefined, keyAuth),
  ),
  await perRequest('GET /signals?limit=20&page=50', 20, () =>
    call('GET', '/api/v1/signals?limit=20&page=50', undefined, keyAuth),
  ),
  await perRequest('GET /incident-ticket?limit=20, page 1', 20, () =>
    call('GET', '/api/v1/incident-ticket?limit=20', undefined, auth),
  ),
  await perRequest('GET /incident-ticket?limit=20&page=50', 20, () =>
    call('GET', '/api/v1/incident-ticket?limit=20&page=50', undefined, auth),
  ),
];

operations.close();
await stack.stop();

// Paging in an alert storm: the service in a process of its own again, its queue workers on.
const storm = await measureAlertStorm(join(work, 'storm'), STORM_SHAPE, STEADY_RATE);
await rm(work, { recursive: true, force: true });

console.log(`node ${process.version}, dynalite on disk, ${IN_FLIGHT} requests in flight, BENCH_SCALE=${SCALE}`);
console.log(
  '\nThroughput against the raw store rate, with CPU ms per request: the service process (all threads), its' +
    " handlers thread, and this process (the load); busy: the share of the machine's cores the three used",
);
const ratioToRaw = (rate: Rate) => Number((rate.perSecond / raw.perSecond).toFixed(2));
console.table([
  { path: 'raw PutItem (dynalite on disk)', ...raw, ratio: 1 },
  { path: 'raw PutItem, item in every index', ...rawIndexed, ratio: ratioToRaw(rawIndexed) },
  ...throughput.map(({ name, rate, serviceCpuMs, handlersThreadCpuMs, loadCpuMs }) => ({
    path: name,
    ...rate,
    ratio: ratioToRaw(rate),
    serviceCpuMs,
    handlersThreadCpuMs,
    loadCpuMs,
    busy: `${Math.round(((serviceCpuMs + loadCpuMs) * rate.perSecond) / (10 * CORES))}%`,
  })),
]);
console.log('\nList latency, sequential');
console.table(lists.map(({ name, rate }) => ({ list: name, p50ms: rate.p50ms, p99ms: rate.p99ms })));
console.log('\nStore operations per request, counted at the SDK (itemsRead: items a read returned or counted)');
console.table(counted);
printAlertStorm(storm);

const bundles = await measureBundles(Number(process.env.BENCH_IMPORT_RUNS ?? 9));
console.log(
  '\nBundles: entry file with the chunks a cold start loads, against the floor (a bare document-client handler)',
);
console.table(bundles);
