import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startBenchServiceProcess } from './bench-service.ts';
import { commitTree } from './commit-tree.ts';
import { prepareIngestion } from './ingestion-probe.ts';
import { runConcurrently, type Rate } from './load.ts';
import { measureAlertStorm } from './alert-storm.ts';
import { STEADY_RATE, STORM_SHAPE } from './storm-shape.ts';

/**
 * `npm run bench -- --against <commit>`: new-signal ingestion of this tree and of `commit` (a worktree of
 * it, bench/commit-tree.ts) in one run, their services side by side in processes of their own, started the
 * same way: workers off (the CPU a request costs the service) and workers on (what the local stack ingests
 * while its correlation runs beside). The rounds alternate between the two, in turns that swap who goes
 * first, and each side's workers finish their backlog before the other's round: a machine whose speed
 * drifts (virtual, shared) weighs on both, and the ratios compare what one round of each saw.
 */
export interface SideBySideOptions {
  commit: string;
  /** New signals per round. */
  requests: number;
  rounds: number;
  inFlight: number;
  /** Sequential new signals per round for the one-at-a-time latency (workers off). */
  sequential: number;
  /** Alert storms of each side (bench/alert-storm.ts), alternating as the rounds do; 0 for none. */
  storms: number;
}

interface Round {
  rate: Rate;
  /** Service CPU ms per request while the round ran (all its threads), and on its handlers' thread. */
  cpuMs: number;
  handlersMs: number | undefined;
  /** With workers on: CPU ms per request until the workers had drained what the round queued, and how long that took. */
  cpuWithWorkersMs?: number;
  drainedAfterMs?: number;
  oneAtATime?: Rate;
}

type Service = Awaited<ReturnType<typeof startBenchServiceProcess>>;

/** New signals each side ingests before its first round, not measured. */
const WARM_UP_REQUESTS = 300;

const round = async (
  service: Service,
  ingest: (id: string) => Promise<unknown>,
  tag: string,
  { requests, inFlight, sequential }: SideBySideOptions,
  workers: boolean,
): Promise<Round> => {
  const before = await service.cpu();
  const started = performance.now();
  const rate = await runConcurrently(requests, inFlight, (n) => ingest(`${tag}-${n}`));
  const after = await service.cpu();
  const perRequest = (ms: number) => Number((ms / requests).toFixed(2));
  const measured: Round = {
    rate,
    cpuMs: perRequest(after.total - before.total),
    handlersMs:
      after.handlers === undefined || before.handlers === undefined
        ? undefined
        : perRequest(after.handlers - before.handlers),
  };
  if (workers) {
    await service.idle();
    measured.drainedAfterMs = Math.round(performance.now() - started);
    measured.cpuWithWorkersMs = perRequest((await service.cpu()).total - before.total);
  } else {
    measured.oneAtATime = await runConcurrently(sequential, 1, (n) => ingest(`${tag}-one-${n}`));
  }
  return measured;
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const fixed = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Both services with `workers` on or off, `rounds` rounds each, alternating; each side's rounds. */
const compare = async (
  work: string,
  otherTree: string,
  workers: boolean,
  options: SideBySideOptions,
): Promise<[Round[], Round[]]> => {
  const sides = [
    await startBenchServiceProcess(join(work, `this-${workers}`), { workers }),
    await startBenchServiceProcess(join(work, `other-${workers}`), { workers, tree: otherTree }),
  ];
  try {
    const ingests = [];
    for (const side of sides) {
      const { ingest } = await prepareIngestion(side.call);
      // Unmeasured: a fresh process compiles its hot paths during its first requests, which made a side's first
      // round its slowest whichever went first.
      await runConcurrently(WARM_UP_REQUESTS, options.inFlight, (n) => ingest(`warm-up-${n}`));
      await side.idle();
      ingests.push(ingest);
    }
    const rounds: [Round[], Round[]] = [[], []];
    for (let turn = 0; turn < options.rounds; turn += 1)
      for (const index of turn % 2 ? [1, 0] : [0, 1]) {
        const side = sides[index] as Service;
        const ingest = ingests[index] as (id: string) => Promise<unknown>;
        rounds[index]?.push(await round(side, ingest, `round-${turn}`, options, workers));
      }
    return rounds;
  } finally {
    for (const side of sides) await side.stop();
  }
};

const summary = (label: string, rounds: readonly Round[], workers: boolean) => ({
  tree: label,
  perSecond: median(rounds.map((one) => one.rate.perSecond)),
  p50ms: median(rounds.map((one) => one.rate.p50ms)),
  p99ms: median(rounds.map((one) => one.rate.p99ms)),
  serviceCpuMs: fixed(median(rounds.map((one) => one.cpuMs))),
  handlersThreadMs: fixed(median(rounds.map((one) => one.handlersMs ?? NaN))),
  ...(workers
    ? {
        cpuWithWorkersMs: fixed(median(rounds.map((one) => one.cpuWithWorkersMs ?? NaN))),
        drainedAfterS: fixed(median(rounds.map((one) => one.drainedAfterMs ?? NaN)) / 1000, 1),
      }
    : { oneAtATimeP50ms: median(rounds.map((one) => one.oneAtATime?.p50ms ?? NaN)) }),
});

/** Each round's ratio of this tree to the other, paired by turn. */
const ratios = (mine: readonly Round[], theirs: readonly Round[], pick: (one: Round) => number): string =>
  mine.map((one, turn) => fixed(pick(one) / pick(theirs[turn] as Round)).toFixed(2)).join(' ');

export const runSideBySide = async (options: SideBySideOptions): Promise<void> => {
  const { tree, id } = await commitTree(options.commit);
  const short = id.slice(0, 7);
  const work = await mkdtemp(join(tmpdir(), 'incident-bench-sides-'));
  try {
    for (const workers of options.rounds > 0 ? [false, true] : []) {
      const [mine, theirs] = await compare(work, tree, workers, options);
      console.log(
        `\nNew signals (Alertmanager, API key), workers ${workers ? 'on' : 'off'}: ${options.rounds} rounds of ` +
          `${options.requests}, ${options.inFlight} in flight, alternating; medians, then each round's ratio`,
      );
      console.table([summary('this tree', mine, workers), summary(short, theirs, workers)]);
      console.table([
        {
          ratio: `this / ${short}`,
          perSecond: ratios(mine, theirs, (one) => one.rate.perSecond),
          serviceCpuMs: ratios(mine, theirs, (one) => one.cpuMs),
          ...(workers
            ? { cpuWithWorkersMs: ratios(mine, theirs, (one) => one.cpuWithWorkersMs ?? NaN) }
            : { oneAtATimeP50ms: ratios(mine, theirs, (one) => one.oneAtATime?.p50ms ?? NaN) }),
        },
      ]);
    }
    if (options.storms > 0) await compareStorms(work, tree, short, options.storms);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
};

/** The alert storm on each side, `storms` times, alternating who goes first. */
const compareStorms = async (work: string, otherTree: string, short: string, storms: number): Promise<void> => {
  const rows = [];
  for (let turn = 0; turn < storms; turn += 1)
    for (const index of turn % 2 ? [1, 0] : [0, 1]) {
      const tree = index ? otherTree : undefined;
      const { storm, steady } = await measureAlertStorm(
        join(work, `storm-${turn}-${index}`),
        STORM_SHAPE,
        STEADY_RATE,
        tree,
      );
      rows.push({
        turn,
        tree: index ? short : 'this tree',
        deliveriesPerSecond: storm.acceptedPerSecond,
        incidentP50ms: storm.firstAlertToIncident.p50ms,
        incidentP99ms: storm.firstAlertToIncident.p99ms,
        pageP99ms: storm.firstAlertToPage.p99ms,
        correlatedAfterS: fixed(storm.drainedAfterMs / 1000, 1),
        lostOrDoubled: storm.lost + storm.doubled,
        steadyP99ms: steady.alertToIncident.p99ms,
      });
    }
  console.log(
    `\nAlert storm (bench/alert-storm.ts), each side ${storms} times, alternating: a service's first alert to its incident`,
  );
  console.table(rows);
};
