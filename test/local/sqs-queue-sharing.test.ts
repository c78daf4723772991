import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';
import { createSqsQueue } from '#lib/ports/queue/sqs-queue.ts';
import { everyQueue } from '../support/every-queue.ts';

const fast = {
  visibilityTimeoutSeconds: 1,
  maxReceiveCount: 2,
  batchSize: 10,
  consumerTimeoutSeconds: 1,
  maxConcurrency: 2,
};

describe('the SQS queue adapter on the embedded SQS server: sends to one queue that overlap', () => {
  let sqs: LocalSqs;
  let calls: number;

  beforeAll(async () => {
    sqs = await startSqsServer({ settings: everyQueue(fast) });
    sqs.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'SendMessageBatchCommand') calls += 1;
        return next(args);
      },
      { step: 'initialize', name: 'countBatches' },
    );
  });

  afterAll(async () => {
    await sqs.close();
  });

  const receiveAll = async (): Promise<string[]> => {
    const bodies: string[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.client.send(
        new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('correlation'), MaxNumberOfMessages: 10 }),
      );
      if (Messages.length === 0) return bodies.sort();
      bodies.push(...Messages.map((message) => message.Body ?? ''));
    }
  };

  it('go together in the next batches, each message once', async () => {
    const queue = createSqsQueue(sqs.client, sqs.queueUrl);
    calls = 0;
    await Promise.all(Array.from({ length: 25 }, (_unused, index) => queue.send('correlation', [{ index }])));
    // The first goes alone, at once; the 24 that arrive while it is in flight go in batches of ten.
    expect(calls).toBe(4);
    expect(await receiveAll()).toEqual(Array.from({ length: 25 }, (_unused, index) => `{"index":${index}}`).sort());
  });

  it('one at a time, each goes at once in a call of its own, as in Lambda', async () => {
    const queue = createSqsQueue(sqs.client, sqs.queueUrl);
    calls = 0;
    for (let index = 0; index < 3; index += 1) await queue.send('correlation', [{ index }]);
    expect(calls).toBe(3);
    expect(await receiveAll()).toHaveLength(3);
  });
});
