import type { QueueName } from './queue.ts';

export interface QueueSettings {
  /** Seconds a received message stays hidden; at least six times the consumer's timeout, as AWS advises. */
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** Messages handed to one consumer invocation. */
  batchSize: number;
  /** Seconds the consumer function may run. */
  consumerTimeoutSeconds: number;
  /**
   * Batches handled at once: the event source mapping's maximum concurrency (2 to 1,000), within the
   * consumer's reserved concurrency, so a storm scales the consumer this far and no further without a
   * throttled invocation ever spending a message's receive (docs/performance.md, "Workers in a storm").
   */
  maxConcurrency: number;
}

/** One definition for the CDK stack and the local queue emulator. */
export const QUEUE_SETTINGS: Record<QueueName, QueueSettings> = {
  ingestion: {
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 30,
    maxConcurrency: 10,
  },
  correlation: {
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 30,
    maxConcurrency: 10,
  },
  // A one-time code expires in 10 minutes: five tries a minute apart all fall within it.
  mail: {
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 10,
    maxConcurrency: 2,
  },
  // Each try posts to chat and a provider API (3 s limits each); five tries over about ten minutes ride out
  // a receiver's short outage, the visibility timeout being the backoff between them.
  notifications: {
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    batchSize: 5,
    consumerTimeoutSeconds: 20,
    maxConcurrency: 10,
  },
};

export const deadLetterQueueName = (queue: QueueName): string => `${queue}-dlq`;
