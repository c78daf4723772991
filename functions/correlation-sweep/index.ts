import { sweepPendingSignals } from '#lib/correlation/sweep.ts';
import { log } from '#lib/log/logger.ts';
import { currentRuntime } from '#lib/runtime/runtime.ts';

/** Runs on a schedule: sends signals whose correlation message was lost to the correlation queue again. */
export const handler = async (): Promise<void> => {
  const runtime = currentRuntime();
  const result = await sweepPendingSignals(runtime, runtime.clock.now());
  log.info('correlation sweep done', { ...result });
};
