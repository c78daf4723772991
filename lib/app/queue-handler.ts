import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { log, withLogScope } from '#lib/log/logger.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { publishMetrics } from '#lib/ports/metrics/publish-metrics.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { REQUEST_ID_ATTRIBUTE } from '#lib/ports/queue/queue.ts';

export type RecordProcessor = (ports: Ports, record: SQSRecord) => Promise<void>;

export interface QueueHandlerOptions {
  /**
   * Records one after another (the default), so records of one batch never contend with each other, or
   * all at once where they are independent and throughput matters.
   */
  order?: 'sequential' | 'parallel';
}

/**
 * The Lambda entry of a queue consumer: each record in its own log scope, under the id of the request that
 * queued it (the message's `requestId` attribute; the message id for work no request caused); a record that throws is logged
 * and reported alone in `batchItemFailures`, so SQS retries only it (and, after the queue's receive limit,
 * moves it to the dead-letter queue). The event source mapping must report batch item failures. The
 * batch's metrics are published once, after its last record.
 */
export const createQueueHandler = (
  worker: FunctionDeclaration,
  process: RecordProcessor,
  { order = 'sequential' }: QueueHandlerOptions = {},
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) => {
  const attempt = (ports: Ports, record: SQSRecord, context?: Context): Promise<SQSBatchItemFailure | undefined> =>
    withLogScope(
      record.messageAttributes?.[REQUEST_ID_ATTRIBUTE]?.stringValue ?? record.messageId,
      async () => {
        try {
          await process(ports, record);
          return undefined;
        } catch (error) {
          log.error(`${worker.name}: record failed; SQS will retry it`, {
            messageId: record.messageId,
            receiveCount: record.attributes?.ApproximateReceiveCount,
            error,
          });
          return { itemIdentifier: record.messageId };
        }
      },
      context,
    );
  return async ({ Records }, context) => {
    const ports = portsOf(worker);
    const outcomes: (SQSBatchItemFailure | undefined)[] = [];
    try {
      if (order === 'parallel')
        outcomes.push(...(await Promise.all(Records.map((record) => attempt(ports, record, context)))));
      else for (const record of Records) outcomes.push(await attempt(ports, record, context));
    } finally {
      publishMetrics(worker, ports);
    }
    return { batchItemFailures: outcomes.filter((failure) => failure !== undefined) };
  };
};
