import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { correlateSignal } from '#lib/correlation/correlate-signal.ts';
import { parseCorrelationMessage } from '#lib/correlation/correlation-message.ts';
import { log, withLogScope } from '#lib/log/logger.ts';
import { currentRuntime } from '#lib/runtime/runtime.ts';

/**
 * The correlation queue's consumer. Records run one after another, so signals of one group in one batch
 * never contend; a record that fails is reported alone (`batchItemFailures`) and only it is retried.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const runtime = currentRuntime();
  const batchItemFailures: SQSBatchItemFailure[] = [];
  for (const record of event.Records) {
    await withLogScope(record.messageId, async () => {
      try {
        const { workspaceId, signalId } = parseCorrelationMessage(record.body);
        const outcome = await correlateSignal(runtime, workspaceId, signalId);
        log.info('signal correlated', { workspaceId, signalId, ...outcome });
      } catch (error) {
        log.error('correlation failed; the message will be retried', { error, receiveCount: record.attributes.ApproximateReceiveCount });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    });
  }
  return { batchItemFailures };
};
