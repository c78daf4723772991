import { systemAccountScope } from '#lib/identity/scope.ts';
import { sweepSlaDeadlines } from '#lib/incidents/sla-sweep.ts';
import { log } from '#lib/log/logger.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { slaSweep } from '#lib/workers/sla-sweep.ts';

/** Runs on a schedule: records the breaches of SLA deadlines that passed. */
export const handler = async (): Promise<void> => {
  const ports = portsOf(slaSweep);
  const result = await sweepSlaDeadlines(systemAccountScope(ports), ports.clock.now());
  log.info('SLA sweep done', { ...result });
};
