import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ChangeMessageVisibilityCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import type {
  Context,
  SQSBatchResponse,
  SQSEvent,
  SQSMessageAttribute,
  SQSRecord,
  SQSRecordAttributes,
} from 'aws-lambda';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import { invokeWithin } from './lambda-context.ts';
import { deleteMessages, type LocalSqs } from './sqs-server.ts';
import { backlogScaling } from './backlog-scaling.ts';
import type { RequestsInFlight } from './requests-in-flight.ts';

export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

export interface QueuePollerOptions {
  sqs: LocalSqs;
  queue: QueueName;
  handler: QueueHandler;
  /** Overrides the queue's own visibility timeout for the messages this poller receives. */
  visibilityTimeoutSeconds?: number;
  batchSize?: number;
  /** Overrides the queue's maximum concurrency: how many batches are handled at once. */
  maxConcurrency?: number;
  onError?: (error: unknown) => void;
  /** Requests the trigger yields to: one consumer and small batches while they come (backlog-scaling.ts). */
  yieldTo?: RequestsInFlight;
}

export interface QueuePoller {
  /**
   * Ends polling after the current receive, waits for the batch in flight, and makes the messages of
   * failed batches visible again at once, so a clean stop can save them instead of losing them to
   * their visibility timeout.
   */
  stop(): Promise<void>;
  /** Resolves once the queue holds no message, visible or in flight, and no batch is running. */
  idle(): Promise<void>;
}

const ERROR_BACKOFF_MS = 1_000;
/** How soon to look again while a failed message waits out its visibility timeout: the retry's delay, not the queue's. */
const RETRY_CHECK_MS = 50;
/**
 * How soon to look again on an empty queue with nothing awaiting a retry. Sends through the stack's own
 * client wake the poller at once (LocalSqs.onArrival); this only catches messages sent by other clients.
 */
const QUIET_CHECK_MS = 1_000;

const checkInteger = (name: string, value: number, min: number, max: number): void => {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
};

const required = (value: string | undefined, name: string): string => {
  if (value === undefined) throw new Error(`ReceiveMessage returned a message without ${name}`);
  return value;
};

const toEventAttribute = ({ DataType, StringValue, BinaryValue }: MessageAttributeValue): SQSMessageAttribute => ({
  dataType: required(DataType, 'an attribute data type'),
  stringValue: StringValue,
  binaryValue: BinaryValue === undefined ? undefined : Buffer.from(BinaryValue).toString('base64'),
  stringListValues: [],
  binaryListValues: [],
});

/** Messages to keep; as in Lambda, naming a message that is not in the batch fails the whole batch. */
const failedMessageIds = (response: SQSBatchResponse | undefined, records: readonly SQSRecord[]): Set<string> => {
  const inBatch = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const { itemIdentifier } of response?.batchItemFailures ?? []) {
    if (!inBatch.has(itemIdentifier))
      throw new Error(`batchItemFailures names ${JSON.stringify(itemIdentifier)}, which is not in the batch`);
    failed.add(itemIdentifier);
  }
  return failed;
};

/**
 * Lambda's SQS event source mapping with ReportBatchItemFailures, over the local SQS server: up to the
 * queue's `maxConcurrency` batches at once, as the mapping's scaling config allows in AWS, scaled to the
 * backlog as the mapping scales its pollers (backlog-scaling.ts): one batch at a time while receives come back
 * short, one more after each full batch, one fewer after each short or empty receive. On one machine every batch takes its
 * CPU from the requests the local server answers: a consumer per possible batch, each woken by every send,
 * handed out one-message batches and empty receives while ingestion ran (docs/performance.md).
 */
export const startQueuePoller = (options: QueuePollerOptions): QueuePoller => {
  const { sqs, queue, handler } = options;
  const settings = sqs.settings[queue];
  const queueUrl = sqs.queueUrl(queue);
  const visibilityTimeoutSeconds = options.visibilityTimeoutSeconds ?? settings.visibilityTimeoutSeconds;
  const batchSize = options.batchSize ?? settings.batchSize;
  const concurrency = options.maxConcurrency ?? settings.maxConcurrency;
  checkInteger('visibilityTimeoutSeconds', visibilityTimeoutSeconds, 1, 43_200);
  checkInteger('batchSize', batchSize, 1, 10);
  checkInteger('maxConcurrency', concurrency, 1, 1_000);

  const report = (message: string, error: unknown): void => {
    if (options.onError) {
      options.onError(error);
      return;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${JSON.stringify({ level: 'ERROR', message, queue, error: detail })}\n`);
  };

  const toRecord = (message: Message): SQSRecord => ({
    messageId: required(message.MessageId, 'MessageId'),
    receiptHandle: required(message.ReceiptHandle, 'ReceiptHandle'),
    body: required(message.Body, 'Body'),
    // AttributeNames ['All'] makes the server return every system attribute the record needs.
    attributes: message.Attributes as SQSRecordAttributes,
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [name, toEventAttribute(value)]),
    ),
    md5OfBody: required(message.MD5OfBody, 'MD5OfBody'),
    ...(message.MD5OfMessageAttributes && { md5OfMessageAttributes: message.MD5OfMessageAttributes }),
    eventSource: 'aws:sqs',
    eventSourceARN: sqs.queueArn(queue),
    awsRegion: sqs.region,
  });

  /** Failed messages waiting out their visibility timeout, by message id: the latest receipt of each. */
  const awaitingRetry = new Map<string, string>();

  const deliver = async (messages: readonly Message[]): Promise<void> => {
    const records = messages.map(toRecord);
    for (const record of records) awaitingRetry.delete(record.messageId);
    let failed: Set<string>;
    try {
      // Timed as Lambda times the batch: past the consumer's timeout the whole batch has failed.
      const response = await invokeWithin(
        `${queue}-consumer`,
        randomUUID(),
        settings.consumerTimeoutSeconds * 1_000,
        (context) => handler({ Records: records }, context),
      );
      failed = failedMessageIds(response, records);
    } catch (error) {
      // Nothing is deleted: the whole batch returns after the visibility timeout, and redrive does the rest.
      report('queue handler failed', error);
      failed = new Set(records.map((record) => record.messageId));
    }
    for (const record of records)
      if (failed.has(record.messageId)) awaitingRetry.set(record.messageId, record.receiptHandle);
    await deleteMessages(
      sqs.client,
      queueUrl,
      messages.filter((message) => !failed.has(message.MessageId ?? '')),
    );
  };

  /** A receipt that is stale (the message came back or moved to the dead-letter queue) is simply refused. */
  const releaseAwaitingRetry = async (): Promise<void> => {
    await Promise.all(
      [...awaitingRetry.values()].map((receiptHandle) =>
        sqs.client
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: queueUrl,
              ReceiptHandle: receiptHandle,
              VisibilityTimeout: 0,
            }),
          )
          .catch(() => undefined),
      ),
    );
    awaitingRetry.clear();
  };

  let stopping = false;
  /** Batches being handled now; at most `concurrency`, as the event source mapping's maximum concurrency. */
  let batchesRunning = 0;
  const scaling = backlogScaling({ concurrency, batchSize, yieldTo: options.yieldTo }, () => batchesRunning);
  const stopped = new AbortController();
  /** Counts arrivals, so one that lands while a receive is on its way is not slept through. */
  let arrivals = 0;
  const sleepers = new Set<() => void>();
  const stopListening = sqs.onArrival(queueUrl, () => {
    arrivals += 1;
    for (const wake of sleepers) wake();
    scaling.arrived(batchesRunning);
  });
  /** Every finished receive (with or without a batch) and the stop, for `idle()` to look again. */
  const turns = new EventEmitter();
  turns.setMaxListeners(0);
  const nextTurn = (): Promise<void> => new Promise((resolve) => turns.once('turn', resolve));

  const sleepUntilArrival = async (): Promise<void> => {
    const fallbackMs = awaitingRetry.size > 0 ? RETRY_CHECK_MS : QUIET_CHECK_MS;
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    await new Promise<void>((resolve) => {
      wake = () => resolve();
      sleepers.add(wake);
      timer = setTimeout(wake, fallbackMs);
      stopped.signal.addEventListener('abort', wake);
    });
    clearTimeout(timer);
    if (wake) {
      sleepers.delete(wake);
      stopped.signal.removeEventListener('abort', wake);
    }
  };

  /**
   * Receives without waiting: the local server answers a long poll only when the batch fills or the wait
   * ends, which would hold every message back by the wait. Answers how many messages came.
   */
  const poll = async (): Promise<number> => {
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: scaling.batchLimit(),
        WaitTimeSeconds: 0,
        VisibilityTimeout: visibilityTimeoutSeconds,
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    scaling.received(Messages.length);
    if (!Messages.length) return 0;
    batchesRunning += 1;
    try {
      await deliver(Messages);
    } finally {
      batchesRunning -= 1;
    }
    return Messages.length;
  };
  /** One of the mapping's concurrent consumers: receive, handle, and sleep only when the queue gave nothing. */
  const consume = async (_: unknown, index: number): Promise<void> => {
    for (;;) {
      await scaling.admitted(index, stopped.signal);
      if (stopping) return;
      const seen = arrivals;
      try {
        const received = await poll();
        turns.emit('turn');
        if (received === 0 && arrivals === seen && !stopping) await sleepUntilArrival();
      } catch (error) {
        report('queue poll failed', error);
        turns.emit('turn');
        await delay(ERROR_BACKOFF_MS, undefined, { signal: stopped.signal }).catch(() => undefined);
      }
    }
  };
  const loop = (async () => {
    await Promise.all(Array.from({ length: concurrency }, consume));
    stopListening();
    turns.emit('turn');
  })();

  const queueIsEmpty = async (): Promise<boolean> => {
    const { Attributes = {} } = await sqs.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: [
          'ApproximateNumberOfMessages',
          'ApproximateNumberOfMessagesNotVisible',
          'ApproximateNumberOfMessagesDelayed',
        ],
      }),
    );
    return Object.values(Attributes).every((count) => count === '0');
  };

  return {
    async stop() {
      stopping = true;
      scaling.stop();
      stopped.abort();
      await loop;
      await releaseAwaitingRetry();
    },
    async idle() {
      for (;;) {
        // Listening before looking, so a turn that ends while the queue is read is not missed.
        const turn = nextTurn();
        if (batchesRunning === 0 && (await queueIsEmpty())) return;
        if (stopping) throw new Error(`the ${queue} poller stopped before its queue was empty`);
        await turn;
      }
    },
  };
};
