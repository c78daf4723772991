import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { correlateSignal } from '#lib/correlation/correlate-signal.ts';
import { parseCorrelationMessage } from '#lib/correlation/correlation-message.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { correlationWorker } from '#lib/workers/correlation-worker.ts';

/** The correlation queue's consumer; records run one after another, so signals of one group never contend. */
export const handler = createQueueHandler(correlationWorker, async (ports, record) => {
  const { workspaceId, signalId } = parseCorrelationMessage(record.body);
  const outcome = await correlateSignal(systemScope(workspaceId, ports), signalId);
  log.info('signal correlated', { workspaceId, signalId, ...outcome });
});
