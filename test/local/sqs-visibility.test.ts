import {
  ChangeMessageVisibilityCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';

let sqs: LocalSqs;

beforeAll(async () => {
  sqs = await startSqsServer();
});

afterAll(async () => {
  await sqs?.close();
});

/**
 * The service's own SQS client reaches the local queues through a worker thread's message port, not a socket
 * (infra/local/stand-in-thread.mjs). The queue stand-in finishes a visibility of 0 and a delay of 0 in a timer:
 * the next request must already see them finished, as it does over HTTP and in SQS.
 */
describe('the local SQS server, right after a change', () => {
  const counts = async (queueUrl: string) => {
    const { Attributes = {} } = await sqs.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return {
      visible: Number(Attributes.ApproximateNumberOfMessages),
      inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
    };
  };

  it('counts a message sent without a delay at once', async () => {
    const queueUrl = sqs.queueUrl('correlation');
    await sqs.client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'sent' }));
    expect(await counts(queueUrl)).toEqual({ visible: 1, inFlight: 0 });
  });

  it('shows a message whose visibility was set to 0 at once', async () => {
    const queueUrl = sqs.queueUrl('correlation');
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }),
    );
    expect(await counts(queueUrl)).toMatchObject({ inFlight: 1 });
    const ReceiptHandle = Messages[0]?.ReceiptHandle;
    await sqs.client.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle, VisibilityTimeout: 0 }),
    );
    expect(await counts(queueUrl)).toEqual({ visible: 1, inFlight: 0 });
  });
});

/**
 * As in SQS, a short poll answers at once (on the next timer tick, after the sends before it) with what is
 * visible. local-aws-sqs 2.0.2 held every receive for at least 40 ms, scanning every 10 ms, until the batch filled:
 * each message a local worker took cost that much idle time, and about a tenth of the `stack` project's clock run
 * alone (patches/local-aws-sqs+2.0.2.patch).
 */
describe('the local SQS server, on a short poll', () => {
  const RECEIVES = 20;
  /** Unpatched, 20 receives cannot take less than 800 ms: each waits out a 40 ms timer. */
  const AT_MOST_MS = 600;

  it('answers a receive without a wait at once, with the visible messages or none', async () => {
    const queueUrl = sqs.queueUrl('mail');
    const receive = () =>
      sqs.client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    await sqs.client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'one' }));
    const started = performance.now();
    const replies = [];
    for (let index = 0; index < RECEIVES; index += 1) replies.push(await receive());
    const elapsed = performance.now() - started;
    const [first, ...rest] = replies;
    expect(first?.Messages?.map(({ Body }) => Body)).toEqual(['one']);
    expect(rest.every(({ Messages = [] }) => Messages.length === 0)).toBe(true);
    expect(elapsed).toBeLessThan(AT_MOST_MS);
  });
});
