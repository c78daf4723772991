import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { correlateSignal } from '#lib/correlation/correlate-signal.ts';
import { parseCorrelationMessage } from '#lib/correlation/correlation-message.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { correlationWorker } from '#lib/workers/correlation-worker.ts';

/** What follows a resolve (the incidents' resolve among it) is a chunk, loaded by the first such message. */
const resolvedSignals = onFirstUse(() => import('#lib/correlation/resolved-signal.ts'));

/** The correlation queue's consumer; records run one after another, so signals of one group never contend. */
export const handler = createQueueHandler(correlationWorker, async (ports, record) => {
  const { workspaceId, signalId, kind } = parseCorrelationMessage(record.body);
  const scope = systemScope(workspaceId, ports);
  if (kind === 'resolved') {
    log.info('resolved signal followed', {
      workspaceId,
      signalId,
      ...(await (await resolvedSignals()).followResolvedSignal(scope, signalId)),
    });
    return;
  }
  log.info('signal correlated', { workspaceId, signalId, ...(await correlateSignal(scope, signalId)) });
});
