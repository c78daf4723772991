import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { log, withLogScope } from '#lib/log/logger.ts';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { publishMetrics } from '#lib/ports/metrics/publish-metrics.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { REQUEST_ID_ATTRIBUTE } from '#lib/ports/queue/queue.ts';

/** Handles one record; `shared` is what the records of its batch share (`perBatch`), undefined without it. */
export type RecordProcessor<Shared = undefined> = (ports: Ports, record: SQSRecord, shared: Shared) => Promise<void>;

export interface QueueHandlerOptions<Shared = undefined> {
  /**
   * Records one after another (the default), so records of one batch never contend with each other, or
   * all at once where they are independent, or coordinate through `perBatch`, and throughput matters.
   */
  order?: 'sequential' | 'parallel';
  /** Made once per invocation and handed to each of its records: reads and coordination the batch shares. */
  perBatch?: () => Shared;
}

/**
 * The Lambda entry of a queue consumer: each record in its own log scope, under the id of the request that
 * queued it (the message's `requestId` attribute; the message id for work no request caused); a record that throws is logged
 * and reported alone in `batchItemFailures`, so SQS retries only it (and, after the queue's receive limit,
 * moves it to the dead-letter queue). The event source mapping must report batch item failures. The
 * batch's metrics are published once, after its last record.
 */
export const createQueueHandler = <Shared = undefined>(
  worker: FunctionDeclaration,
  process: RecordProcessor<Shared>,
  { order = 'sequential', perBatch }: QueueHandlerOptions<Shared> = {},
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) => {
  const attempt = (
    ports: Ports,
    record: SQSRecord,
    shared: Shared,
    context?: Context,
  ): Promise<SQSBatchItemFailure | undefined> =>
    withLogScope(
      record.messageAttributes?.[REQUEST_ID_ATTRIBUTE]?.stringValue ?? record.messageId,
      async () => {
        try {
          await process(ports, record, shared);
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
    const shared = perBatch?.() as Shared;
    const outcomes: (SQSBatchItemFailure | undefined)[] = [];
    try {
      if (order === 'parallel')
        outcomes.push(...(await Promise.all(Records.map((record) => attempt(ports, record, shared, context)))));
      else for (const record of Records) outcomes.push(await attempt(ports, record, shared, context));
    } finally {
      publishMetrics(worker, ports);
    }
    return { batchItemFailures: outcomes.filter((failure) => failure !== undefined) };
  };
};
