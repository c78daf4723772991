import { systemAccountScope } from '#lib/identity/scope.ts';
import { sweepAllHeartbeats } from '#lib/heartbeats/heartbeat-sweep.ts';
import { sweepSlaDeadlines } from '#lib/incidents/sla-sweep.ts';
import { log } from '#lib/log/logger.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { slaSweep } from '#lib/workers/sla-sweep.ts';

/** Runs on a schedule: records the breaches of SLA deadlines that passed, escalates, and raises missed heartbeats. */
export const handler = async (): Promise<void> => {
  const ports = portsOf(slaSweep);
  const scope = systemAccountScope(ports);
  const now = ports.clock.now();
  const result = await sweepSlaDeadlines(scope, now);
  const heartbeats = await sweepAllHeartbeats(scope, now);
  log.info('SLA sweep done', {
    ...result,
    heartbeatsMissed: heartbeats.missed,
    heartbeatsRecovered: heartbeats.recovered,
  });
};
