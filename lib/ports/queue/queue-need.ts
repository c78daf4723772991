import { SQSClient } from '@aws-sdk/client-sqs';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed } from '../need.ts';
import type { QueueName } from './queue.ts';
import { createSqsQueue } from './sqs-queue.ts';

export const QUEUE_URL_ENV: Record<QueueName, string> = {
  ingestion: ENV.ingestionQueueUrl,
  correlation: ENV.correlationQueueUrl,
};

/** Sending to the named work queues (consuming is the queue's event source, not a port). */
export const queueSender = (...queues: QueueName[]): PortNeed => ({
  binding: { kind: 'queues', queues },
  build: {
    queue: (env) =>
      createSqsQueue(new SQSClient({}), (queue) => {
        if (!queues.includes(queue)) throw new Error(`the ${queue} queue is not among this function's needs`);
        return requiredEnv(env, QUEUE_URL_ENV[queue]);
      }),
  },
});
