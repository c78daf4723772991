import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_SETTINGS } from '#lib/ports/queue/queue-settings.ts';
import { sqsRecord } from './bundle-requests.ts';
import type { BundleStack } from './bundle-stack.ts';

/**
 * Hands everything waiting on a queue to its worker's bundle, in batches of the event source mapping's size,
 * as Lambda would; answers the bodies delivered. A batch item failure throws, with the worker's log.
 */
export const drainQueueTo = async (
  { sqs, bundle }: BundleStack,
  queue: QueueName,
  worker: string,
): Promise<string[]> => {
  const bodies: string[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({
        QueueUrl: sqs.queueUrl(queue),
        MaxNumberOfMessages: QUEUE_SETTINGS[queue].batchSize,
        AttributeNames: ['All'],
      }),
    );
    if (Messages.length === 0) return bodies;
    const records = Messages.map((message) => sqsRecord(message, sqs.queueArn(queue)));
    bodies.push(...records.map(({ body }) => body));
    const reply = (await bundle(worker).invoke({ Records: records })) as { batchItemFailures: unknown[] };
    if (reply.batchItemFailures.length > 0)
      throw new Error(`${worker} failed ${JSON.stringify(reply)}: ${bundle(worker).output().slice(-4000)}`);
  }
};
