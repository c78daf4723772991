import { sweepPendingSignals } from '#lib/correlation/sweep.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { correlationSweep } from '#lib/workers/correlation-sweep.ts';

/** Runs on a schedule: sends signals whose correlation message was lost to the correlation queue again. */
export const handler = async (): Promise<void> => {
  const ports = portsOf(correlationSweep);
  const result = await sweepPendingSignals(systemAccountScope(ports), ports.clock.now());
  log.info('correlation sweep done', { ...result });
};
