/**
 * The work queues of the service; each has a dead-letter queue behind it. `correlation-first` is the lane of a
 * group's first signal (lib/signals/correlation-lane.ts), `mail` the e-mail outbox, `notifications` the incident
 * events the notification worker turns into messages.
 */
export const QUEUE_NAMES = ['ingestion', 'correlation', 'correlation-first', 'mail', 'notifications'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/**
 * The most one message, and one batch of messages, may hold as JSON: SQS's long-standing 256 KiB (the
 * queues are created with it, locally too). Larger contents go to object storage with a reference.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** Sends messages to a work queue; delivery is at least once, so consumers must be idempotent. */
export interface Queue {
  send(queue: QueueName, messages: readonly object[]): Promise<void>;
}

/** The message attribute naming the request whose work a message carries on. */
export const REQUEST_ID_ATTRIBUTE = 'requestId';
