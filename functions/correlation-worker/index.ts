import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createQueueHandler } from '#lib/app/queue-handler.ts';
import { correlateSignal } from '#lib/correlation/correlate-signal.ts';
import { correlationBatch } from '#lib/correlation/correlation-batch.ts';
import { parseCorrelationMessage } from '#lib/correlation/correlation-message.ts';
import { systemScope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { correlationWorker } from '#lib/workers/correlation-worker.ts';

/** What follows a resolve (the incidents' resolve among it) is a chunk, loaded by the first such message. */
const resolvedSignals = onFirstUse(() => import('#lib/correlation/resolved-signal.ts'));
const acknowledgedSignals = onFirstUse(() => import('#lib/correlation/acknowledged-signal.ts'));

/**
 * The correlation queue's consumer. A batch's records run side by side: signals of one group coordinate
 * through the batch's lane for it (docs/correlation.md, "A batch at a time"), so they never contend on the
 * group's item, and a group's first signal does not wait behind the other groups' signals.
 */
export const handler = createQueueHandler(
  correlationWorker,
  async (ports, record, batch) => {
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
    if (kind === 'acknowledged') {
      log.info('acknowledged signal followed', {
        workspaceId,
        signalId,
        ...(await (await acknowledgedSignals()).followAcknowledgedSignal(scope, signalId)),
      });
      return;
    }
    log.info('signal correlated', { workspaceId, signalId, ...(await correlateSignal(scope, { signalId, batch })) });
  },
  { order: 'parallel', perBatch: correlationBatch },
);
