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
  // Stores events the table refused for capacity: more at once would only press on the same table.
  ingestion: {
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 30,
    maxConcurrency: 5,
  },
  // Ten batches of ten at once take a storm's signals as fast as the API's 500 requests a second bring them.
  correlation: {
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 30,
    maxConcurrency: 10,
  },
  // A group's first signal (lib/signals/correlation-lane.ts): one or a few a minute even in a storm, so the fewest
  // batches a mapping allows keep this lane empty while the other holds the storm's backlog.
  'correlation-first': {
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 30,
    maxConcurrency: 2,
  },
  // A one-time code expires in 10 minutes: five tries a minute apart all fall within it. Two batches at once
  // stay within SES's sending rate (14 a second at its production default).
  mail: {
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    consumerTimeoutSeconds: 10,
    maxConcurrency: 2,
  },
  // Each try posts to chat and a provider API (3 s limits each); five tries over about ten minutes ride out
  // a receiver's short outage, the visibility timeout being the backoff between them. Five batches of five:
  // a storm's first pages go out together without a burst that chat webhooks would refuse.
  notifications: {
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    batchSize: 5,
    consumerTimeoutSeconds: 20,
    maxConcurrency: 5,
  },
};

export const deadLetterQueueName = (queue: QueueName): string => `${queue}-dlq`;
