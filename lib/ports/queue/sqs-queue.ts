import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Queue, QueueName } from './queue.ts';

const SQS_BATCH_LIMIT = 10;

/** The queue port over SQS; locally the same adapter talks to the embedded SQS server. */
export const createSqsQueue = (client: SQSClient, queueUrl: (queue: QueueName) => string): Queue => ({
  async send(queue, messages) {
    for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
      const batch = messages.slice(start, start + SQS_BATCH_LIMIT);
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl(queue),
          Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
        }),
      );
      if (result.Failed?.length) {
        const reasons = result.Failed.map((failure) => failure.Code ?? failure.Message).join(', ');
        throw new Error(`${result.Failed.length} message(s) not accepted by queue ${queue}: ${reasons}`);
      }
    }
  },
});
