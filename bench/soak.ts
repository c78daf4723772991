import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { MemoryReport } from '#infra/local/local-memory.ts';
import { prepareAlertingWorkspace } from './alert-storm.ts';
import { BENCH_RATE_LIMITS, benchCaller } from './bench-service.ts';
import { startServiceAsNpmStart } from './started-service.ts';

/**
 * `npm run bench -- soak [--minutes 10] [--every 60]`: issue 49's steady traffic through the service as
 * `npm start` runs it, its table on disk, for a given time: 8 Alertmanager notifications a second (a quarter
 * of them new alerts, the rest repeats of the newest ones, as Alertmanager sends a firing alert again) and
 * 2 list reads a second, open loop as senders are. Every `--every` seconds it prints the process's resident
 * memory, each thread's heap and the latency of that stretch, read from `GET /_local/metrics`.
 */
export interface SoakOptions {
  minutes: number;
  everySeconds: number;
}

const ALERTS_PER_SECOND = 8;
/** Every fourth notification carries a new alert. */
const NEW_EVERY = 4;
const READS_PER_SECOND = 2;
/** The newest alerts the repeats cycle through. */
const REPEATED = 50;
const SERVICES = Array.from({ length: 8 }, (_, n) => `soak-${n + 1}`);
const MIB = 1024 * 1024;

export const parseSoakOptions = (args: readonly string[]): SoakOptions => {
  const option = (name: string, fallback: number): number => {
    const at = args.indexOf(`--${name}`);
    const value = at === -1 ? fallback : Number(args[at + 1]);
    if (!(value > 0)) throw new Error(`--${name} takes a positive number, got "${args[at + 1]}"`);
    return value;
  };
  const minutes = option('minutes', 10);
  // A row a minute; ten of a shorter run.
  return { minutes, everySeconds: option('every', Math.min(60, (minutes * 60) / 10)) };
};

interface Sample {
  /** When it was answered, from the start of the traffic. */
  atMs: number;
  kind: 'alert' | 'read';
  ms: number;
  ok: boolean;
}

interface MemorySample {
  atMs: number;
  memory: MemoryReport;
}

const p = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
};
const mib = (bytes: number): number => Math.round(bytes / MIB);

/** Runs `fire(n)` at `perSecond` from `startMs` until `endMs`, without waiting for one to answer before the next. */
const openLoop = async (
  perSecond: number,
  startMs: number,
  endMs: number,
  fire: (n: number) => Promise<void>,
): Promise<void> => {
  const running: Promise<void>[] = [];
  for (let n = 0; ; n += 1) {
    const at = startMs + (n * 1000) / perSecond;
    if (at >= endMs) break;
    await delay(Math.max(0, at - performance.now()));
    running.push(fire(n));
  }
  await Promise.all(running);
};

export const runSoak = async ({ minutes, everySeconds }: SoakOptions): Promise<void> => {
  const work = await mkdtemp(join(tmpdir(), 'incident-soak-'));
  const service = await startServiceAsNpmStart(join(work, 'data'), { RATE_LIMITS: BENCH_RATE_LIMITS });
  try {
    const call = benchCaller(service.url);
    const { auth, keyAuth, ingest } = await prepareAlertingWorkspace(call, SERVICES);
    const readMemory = async () => ((await call('GET', '/_local/metrics')) as { memory: MemoryReport }).memory;
    const samples: Sample[] = [];
    const memory: MemorySample[] = [];
    const alerts: { service: string; alertName: string; startsAt: string }[] = [];
    const startMs = performance.now();
    const endMs = startMs + minutes * 60_000;
    const timed = (kind: Sample['kind'], run: () => Promise<unknown>) => async () => {
      const before = performance.now();
      const ok = await run().then(
        () => true,
        (error: unknown) => {
          console.error(`${kind} failed: ${String(error)}`);
          return false;
        },
      );
      // Counted in the stretch it is answered in, so a row is complete when it prints.
      const answered = performance.now();
      samples.push({ atMs: answered - startMs, kind, ms: answered - before, ok });
    };

    console.log(
      `Soak: ${ALERTS_PER_SECOND} Alertmanager alerts/s (1 in ${NEW_EVERY} new), ${READS_PER_SECOND} list reads/s, ` +
        `${minutes} min, through \`npm start\` (data on disk) at ${service.url}`,
    );
    const report = async (fromMs: number, toMs: number) => {
      const now = await readMemory();
      memory.push({ atMs: toMs, memory: now });
      const stretch = samples.filter((sample) => sample.atMs >= fromMs && sample.atMs < toMs);
      const ms = (kind: Sample['kind']) => stretch.filter((sample) => sample.kind === kind).map(({ ms }) => ms);
      const row = {
        minute: Number((toMs / 60_000).toFixed(2)),
        rssMiB: mib(now.residentBytes),
        mainHeapMiB: mib(now.threads.main.heapUsedBytes),
        storeHeapMiB: mib(now.threads.dynamodb.heapUsedBytes),
        sqsHeapMiB: mib(now.threads.sqs.heapUsedBytes),
        openIterators: now.threads.dynamodb.iterators?.open ?? '-',
        requests: stretch.length,
        errors: stretch.filter((sample) => !sample.ok).length,
        alertP50ms: p(ms('alert'), 0.5),
        alertP99ms: p(ms('alert'), 0.99),
        readP50ms: p(ms('read'), 0.5),
        readP99ms: p(ms('read'), 0.99),
        // The machine's load: other work on its cores shows in the latency.
        load1m: Number(loadavg()[0]?.toFixed(1)),
      };
      console.log(
        Object.entries(row)
          .map(([name, value]) => `${name}=${value}`)
          .join(' '),
      );
    };
    const reporting = (async () => {
      const everyMs = everySeconds * 1000;
      for (let from = 0; from < minutes * 60_000; from += everyMs) {
        const to = Math.min(from + everyMs, minutes * 60_000);
        await delay(Math.max(0, startMs + to - performance.now()));
        await report(from, to);
      }
    })();

    await Promise.all([
      openLoop(ALERTS_PER_SECOND, startMs, endMs, (n) => {
        const startsAt = new Date().toISOString();
        if (n % NEW_EVERY === 0 || alerts.length === 0) {
          alerts.push({
            service: SERVICES[alerts.length % SERVICES.length] as string,
            alertName: `Soak${n}`,
            startsAt,
          });
        }
        const recent = alerts.slice(-REPEATED);
        const alert = n % NEW_EVERY === 0 ? alerts.at(-1) : recent[n % recent.length];
        if (!alert) throw new Error('no alert to send');
        return timed('alert', () => ingest(alert.service, alert.alertName, alert.startsAt))();
      }),
      openLoop(READS_PER_SECOND, startMs, endMs, (n) =>
        n % 2 === 0
          ? timed('read', () => call('GET', '/api/v1/signals?limit=20', undefined, keyAuth))()
          : timed('read', () => call('GET', '/api/v1/incident-ticket?limit=20', undefined, auth))(),
      ),
      reporting,
    ]);
    printSoakSummary(minutes, samples, memory, service.errors);
  } finally {
    await service.stop();
    await rm(work, { recursive: true, force: true });
  }
};

/** The check: resident memory from minute 2 to the end, errors, and p99 in the first and last stretch. */
const printSoakSummary = (
  minutes: number,
  samples: readonly Sample[],
  memory: readonly MemorySample[],
  serviceErrors: readonly string[],
): void => {
  const totalMs = minutes * 60_000;
  // Two minutes of a ten-minute run; a fifth of a shorter one.
  const edgeMs = Math.min(120_000, totalMs / 5);
  const rssAt = (atMs: number) => memory.find((sample) => sample.atMs >= atMs) ?? memory.at(-1);
  const settled = rssAt(edgeMs);
  const last = memory.at(-1);
  const p99 = (from: number, to: number) =>
    p(
      samples.filter((sample) => sample.atMs >= from && sample.atMs < to).map(({ ms }) => ms),
      0.99,
    );
  const failed = samples.filter((sample) => !sample.ok).length;
  console.table([
    {
      requests: samples.length,
      failed,
      serviceErrorLines: serviceErrors.length,
      [`rssMiB@${(edgeMs / 60_000).toFixed(1)}min`]: settled ? mib(settled.memory.residentBytes) : '-',
      rssMiBAtEnd: last ? mib(last.memory.residentBytes) : '-',
      rssGrowthMiB: settled && last ? mib(last.memory.residentBytes - settled.memory.residentBytes) : '-',
      firstP99ms: p99(0, edgeMs),
      lastP99ms: p99(totalMs - edgeMs, totalMs),
      openIteratorsAtEnd: last?.memory.threads.dynamodb.iterators?.open ?? '-',
    },
  ]);
  for (const line of serviceErrors.slice(0, 5)) console.error(`service: ${line}`);
};
