import { ENV, requiredEnv, type Env } from '../env.ts';
import type { PortNeed } from '../need.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import type { Queue, QueueName } from './queue.ts';
import { newAwsClient } from '../aws-client.ts';

export const QUEUE_URL_ENV: Record<QueueName, string> = {
  ingestion: ENV.ingestionQueueUrl,
  correlation: ENV.correlationQueueUrl,
  'correlation-first': ENV.correlationFirstQueueUrl,
  mail: ENV.mailQueueUrl,
  notifications: ENV.notificationsQueueUrl,
};

/** The SQS adapter sending to the named queues only, each by the URL the stack put in the environment. */
export const sqsQueueOf = (env: Env, queues: readonly QueueName[]): Queue => {
  const queueUrl = (queue: QueueName): string => {
    if (!queues.includes(queue)) throw new Error(`the ${queue} queue is not among this function's needs`);
    return requiredEnv(env, QUEUE_URL_ENV[queue]);
  };
  const sqs = onFirstUse(async () => {
    const [{ SQSClient }, { createSqsQueue }] = await Promise.all([
      import('@aws-sdk/client-sqs'),
      import('./sqs-queue.ts'),
    ]);
    // The middleware stack resolved once per command kind, not on every send: this client adds none later.
    return createSqsQueue(newAwsClient(SQSClient, { cacheMiddleware: true }), queueUrl);
  });
  return { send: async (queue, messages) => (await sqs()).send(queue, messages) };
};

/** Sending to the named work queues (consuming is the queue's event source, not a port). */
export const queueSender = (...queues: QueueName[]): PortNeed => ({
  binding: { kind: 'queues', queues },
  build: { queue: (env) => sqsQueueOf(env, queues) },
});
