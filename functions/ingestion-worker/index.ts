import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { log, withLogScope } from '#lib/log/logger.ts';
import { currentRuntime, type Runtime } from '#lib/runtime/runtime.ts';
import { readQueuedSignalEvent } from '#lib/signals/queued-signal-event.ts';
import { storeQueuedSignalEvent } from '#lib/signals/store-signal-event.ts';

const storeRecord = async (runtime: Runtime, record: SQSRecord): Promise<void> => {
  const queued = await readQueuedSignalEvent(runtime.objects, record.body);
  const stored = await storeQueuedSignalEvent(runtime, queued);
  log.info('queued signal event stored', { workspaceId: queued.workspaceId, ...stored });
};

/**
 * Consumer of the `ingestion` queue: stores the events the table refused for capacity while a sender
 * waited, and the events of batches too large to store while it waits, under the signal id the sender
 * was given. Storing is idempotent per message (the pre-assigned
 * id is both the new signal's id and, without a sender delivery id, the delivery id), so a redelivered
 * message never makes a second signal or counts twice. A message that fails is reported alone and retried
 * by SQS; after five receives it goes to the dead-letter queue.
 */
export const handler = async ({ Records }: SQSEvent): Promise<SQSBatchResponse> => {
  const runtime = currentRuntime();
  const failures = await Promise.all(
    Records.map((record) =>
      withLogScope(record.messageId, async (): Promise<SQSBatchItemFailure | undefined> => {
        try {
          await storeRecord(runtime, record);
          return undefined;
        } catch (error) {
          log.error('queued signal event not stored; SQS will retry it', { messageId: record.messageId, error });
          return { itemIdentifier: record.messageId };
        }
      }),
    ),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
};
