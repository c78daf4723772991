import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { currentRequestId } from '#lib/log/logger.ts';
import { MAX_MESSAGE_BYTES, REQUEST_ID_ATTRIBUTE, type Queue, type QueueName } from './queue.ts';

const SQS_BATCH_LIMIT = 10;
/** Batches in flight at once: a large alert group fans out as hundreds of batches. */
const PARALLEL_BATCHES = 8;

/**
 * Batches of at most ten messages and MAX_MESSAGE_BYTES together, in order; one larger message is refused.
 * SQS counts message attributes (name, type and value) into the size.
 */
const batchesOf = (bodies: readonly string[], attributeBytes: number): string[][] => {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = Buffer.byteLength(body) + attributeBytes;
    if (size > MAX_MESSAGE_BYTES)
      throw new Error(`a message of ${size} bytes is over the queue's ${MAX_MESSAGE_BYTES}`);
    if (batch.length === SQS_BATCH_LIMIT || bytes + size > MAX_MESSAGE_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(body);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
};

/** The queue port over SQS; locally the same adapter talks to the embedded SQS server. */
export const createSqsQueue = (client: SQSClient, queueUrl: (queue: QueueName) => string): Queue => ({
  async send(queue, messages) {
    // The request that queued the work names it in the consumer's logs too (lib/app/queue-handler.ts).
    const requestId = currentRequestId();
    const attributes = requestId && { [REQUEST_ID_ATTRIBUTE]: { DataType: 'String', StringValue: requestId } };
    const attributeBytes = requestId ? Buffer.byteLength(`${REQUEST_ID_ATTRIBUTE}String${requestId}`) : 0;
    const batches = batchesOf(
      messages.map((message) => JSON.stringify(message)),
      attributeBytes,
    );
    const sendBatch = async (batch: string[]): Promise<void> => {
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl(queue),
          Entries: batch.map((body, index) => ({
            Id: String(index),
            MessageBody: body,
            ...(attributes && { MessageAttributes: attributes }),
          })),
        }),
      );
      if (result.Failed?.length) {
        const reasons = result.Failed.map((failure) => failure.Code ?? failure.Message).join(', ');
        throw new Error(`${result.Failed.length} message(s) not accepted by queue ${queue}: ${reasons}`);
      }
    };
    for (let start = 0; start < batches.length; start += PARALLEL_BATCHES) {
      await Promise.all(batches.slice(start, start + PARALLEL_BATCHES).map(sendBatch));
    }
  },
});
