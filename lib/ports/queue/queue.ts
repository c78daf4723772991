/** The two work queues of the service; each has a dead-letter queue behind it. */
export const QUEUE_NAMES = ['ingestion', 'correlation'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Sends messages to a work queue; delivery is at least once, so consumers must be idempotent. */
export interface Queue {
  send(queue: QueueName, messages: readonly object[]): Promise<void>;
}
