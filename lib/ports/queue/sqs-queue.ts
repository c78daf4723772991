import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { currentRequestId } from '#lib/log/logger.ts';
import { MAX_MESSAGE_BYTES, REQUEST_ID_ATTRIBUTE, type Queue, type QueueName } from './queue.ts';

const SQS_BATCH_LIMIT = 10;
/** Batches in flight at once: a large alert group fans out as hundreds of batches. */
const PARALLEL_BATCHES = 8;

type Attributes = Record<string, { DataType: string; StringValue: string }>;

/** One `send` call: done when SQS has answered for each of its messages. */
interface Sending {
  unanswered: number;
  refused: string[];
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Entry {
  body: string;
  attributes?: Attributes;
  bytes: number;
  sending: Sending;
}

/** Batches of at most ten messages and MAX_MESSAGE_BYTES together, in order. */
const batchesOf = (entries: readonly Entry[]): Entry[][] => {
  const batches: Entry[][] = [];
  let batch: Entry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (batch.length === SQS_BATCH_LIMIT || bytes + entry.bytes > MAX_MESSAGE_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(entry);
    bytes += entry.bytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
};

/** Records SQS's answer for one message and settles its `send` once every message of it has one. */
const answer = (entry: Entry, refusal: string | undefined, queue: QueueName): void => {
  const { sending } = entry;
  if (refusal) sending.refused.push(refusal);
  sending.unanswered -= 1;
  if (sending.unanswered > 0) return;
  if (sending.refused.length === 0) sending.resolve();
  else
    sending.reject(
      new Error(`${sending.refused.length} message(s) not accepted by queue ${queue}: ${sending.refused.join(', ')}`),
    );
};

/**
 * The queue port over SQS; locally the same adapter talks to the embedded SQS server. Sends to one queue
 * that overlap share batches: while a SendMessageBatch is in flight, the messages that arrive wait and go
 * together in the next ones, and each `send` settles with the answers for its own messages. A Lambda
 * instance serves one request at a time, so there every send goes at once, as before; the local server,
 * which serves many at once, makes far fewer calls (docs/performance.md).
 */
export const createSqsQueue = (client: SQSClient, queueUrl: (queue: QueueName) => string): Queue => {
  const waiting = new Map<QueueName, Entry[]>();
  const draining = new Set<QueueName>();

  const sendBatch = async (queue: QueueName, batch: Entry[]): Promise<void> => {
    try {
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl(queue),
          Entries: batch.map(({ body, attributes }, index) => ({
            Id: String(index),
            MessageBody: body,
            ...(attributes && { MessageAttributes: attributes }),
          })),
        }),
      );
      const refused = new Map((result.Failed ?? []).map((failure) => [failure.Id, failure.Code ?? failure.Message]));
      for (const [index, entry] of batch.entries()) answer(entry, refused.get(String(index)), queue);
    } catch (error) {
      // A send settles once: its first failed batch rejects it, whatever its other batches do.
      for (const { sending } of batch) sending.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const drain = async (queue: QueueName): Promise<void> => {
    draining.add(queue);
    for (let entries = waiting.get(queue); entries?.length; entries = waiting.get(queue)) {
      waiting.delete(queue);
      const batches = batchesOf(entries);
      for (let start = 0; start < batches.length; start += PARALLEL_BATCHES) {
        await Promise.all(batches.slice(start, start + PARALLEL_BATCHES).map((batch) => sendBatch(queue, batch)));
      }
    }
    draining.delete(queue);
  };

  return {
    send(queue, messages) {
      if (messages.length === 0) return Promise.resolve();
      // The request that queued the work names it in the consumer's logs too (lib/app/queue-handler.ts).
      const requestId = currentRequestId();
      const attributes = requestId
        ? { [REQUEST_ID_ATTRIBUTE]: { DataType: 'String', StringValue: requestId } }
        : undefined;
      // SQS counts message attributes (name, type and value) into the size.
      const attributeBytes = requestId ? Buffer.byteLength(`${REQUEST_ID_ATTRIBUTE}String${requestId}`) : 0;
      const sized = messages.map((message) => {
        const body = JSON.stringify(message);
        return { body, bytes: Buffer.byteLength(body) + attributeBytes };
      });
      const oversized = sized.find(({ bytes }) => bytes > MAX_MESSAGE_BYTES);
      if (oversized) {
        return Promise.reject(
          new Error(`a message of ${oversized.bytes} bytes is over the queue's ${MAX_MESSAGE_BYTES}`),
        );
      }
      return new Promise<void>((resolve, reject) => {
        const sending: Sending = { unanswered: sized.length, refused: [], resolve, reject };
        const entries = waiting.get(queue) ?? [];
        waiting.set(queue, entries);
        for (const message of sized) entries.push({ ...message, sending, ...(attributes && { attributes }) });
        if (!draining.has(queue)) void drain(queue);
      });
    },
  };
};
