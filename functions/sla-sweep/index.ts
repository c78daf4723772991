import { systemAccountScope } from '#lib/identity/scope.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { sweepSlaDeadlines } from '#lib/incidents/sla-sweep.ts';
import { log } from '#lib/log/logger.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { slaSweep } from '#lib/workers/sla-sweep.ts';

/** A chunk of its own: the signal store it reaches is no part of the SLA deadlines' path. */
const heartbeatSweep = onFirstUse(() => import('#lib/heartbeats/heartbeat-sweep.ts'));

/** Runs on a schedule: records the breaches of SLA deadlines that passed, escalates, and raises missed heartbeats. */
export const handler = async (): Promise<void> => {
  const ports = portsOf(slaSweep);
  const scope = systemAccountScope(ports);
  const now = ports.clock.now();
  const result = await sweepSlaDeadlines(scope, now);
  // A missed heartbeat's signal is counted as ingested, as any signal is; published once the run ends.
  const heartbeats = await (await heartbeatSweep()).sweepAllHeartbeats(scope, now).finally(() => ports.metrics.flush());
  log.info('SLA sweep done', {
    ...result,
    heartbeatsMissed: heartbeats.missed,
    heartbeatsRecovered: heartbeats.recovered,
  });
};
