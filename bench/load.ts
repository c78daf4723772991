import { performance } from 'node:perf_hooks';

export interface Rate {
  requests: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
}

/** Runs `total` calls of `run` with `inFlight` of them at once, as independent senders would. */
export const runConcurrently = async (
  total: number,
  inFlight: number,
  run: (index: number) => Promise<unknown>,
): Promise<Rate> => {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (let index = next++; index < total; index = next++) {
      const before = performance.now();
      await run(index);
      samples.push(performance.now() - before);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = performance.now() - started;
  samples.sort((a, b) => a - b);
  const at = (q: number) => Number(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]?.toFixed(1));
  return { requests: total, perSecond: Math.round((total / elapsed) * 1000), p50ms: at(0.5), p99ms: at(0.99) };
};
