import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAX_MESSAGE_BYTES, type QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_SETTINGS, type QueueSettings } from '#lib/ports/queue/queue-settings.ts';

export interface WorkQueueProps {
  name: QueueName;
  /** Defaults to the shared QUEUE_SETTINGS entry, the same numbers the local emulator uses. */
  settings?: QueueSettings;
  /** The worker that drains the queue; without one the queue only fills. */
  consumer?: IFunction;
}

/**
 * A work queue with its dead-letter queue, both encrypted and TLS-only, and an alarm as soon as a
 * message lands in the dead-letter queue.
 */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    const settings = props.settings ?? QUEUE_SETTINGS[props.name];

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The longest SQS allows: a failed message must outlive a long weekend to be looked at.
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
      // The size the SQS adapter batches to, whatever AWS's default becomes.
      maxMessageSizeBytes: MAX_MESSAGE_BYTES,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: settings.maxReceiveCount },
    });

    if (props.consumer) {
      props.consumer.addEventSource(
        // No batching window: the mapping invokes as soon as messages are there, so a storm's first signal
        // is never held back to fill a batch (docs/performance.md, "Workers in a storm").
        new SqsEventSource(this.queue, {
          batchSize: settings.batchSize,
          maxConcurrency: settings.maxConcurrency,
          reportBatchItemFailures: true,
        }),
      );
    }
  }
}
