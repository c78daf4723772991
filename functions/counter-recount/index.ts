import { systemAccountScope } from '#lib/identity/scope.ts';
import { recountCounters } from '#lib/counters/recount-counters.ts';
import { log } from '#lib/log/logger.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { counterRecount } from '#lib/workers/counter-recount.ts';

/** Runs daily on a schedule, or when invoked by hand after an incident with the table. */
export const handler = async (): Promise<void> => {
  const result = await recountCounters(systemAccountScope(portsOf(counterRecount)));
  log.info('counter recount done', { ...result });
};
