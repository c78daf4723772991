import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createSqsQueue } from '#lib/ports/queue/sqs-queue.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import type { QueueSettings } from '#lib/ports/queue/queue-settings.ts';
import { startSqsServer, type LocalSqs } from '#infra/local/sqs-server.ts';
import { LambdaTimeoutError } from '#infra/local/lambda-context.ts';
import { startQueuePoller, type QueuePoller, type QueuePollerOptions } from '#infra/local/queue-poller.ts';
import { everyQueue } from '../support/every-queue.ts';

// The server's smallest visibility timeout, so retries come back within a second.
const fast: QueueSettings = {
  visibilityTimeoutSeconds: 1,
  maxReceiveCount: 2,
  batchSize: 10,
  consumerTimeoutSeconds: 1,
  maxConcurrency: 2,
};

let sqs: LocalSqs;
let queue: Queue;
let pollers: QueuePoller[];

beforeEach(async () => {
  sqs = await startSqsServer({ settings: everyQueue(fast) });
  queue = createSqsQueue(sqs.client, sqs.queueUrl);
  pollers = [];
});

afterEach(async () => {
  await Promise.all(pollers.map((poller) => poller.stop()));
  await sqs.close();
});

const poll = (handler: QueuePollerOptions['handler'], options: Partial<QueuePollerOptions> = {}): QueuePoller => {
  const poller = startQueuePoller({ sqs, queue: 'ingestion', handler, ...options });
  pollers.push(poller);
  return poller;
};

const bodies = (event: SQSEvent): unknown[] => event.Records.map((record) => JSON.parse(record.body));
const receiveCounts = (event: SQSEvent): string[] =>
  event.Records.map((record) => record.attributes.ApproximateReceiveCount);

const messageCount = async (url: string): Promise<number> => {
  const { Attributes } = await sqs.client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages);
};

describe('local SQS trigger', () => {
  it('delivers up to ten messages sent together in one Lambda-shaped batch', async () => {
    await queue.send(
      'ingestion',
      Array.from({ length: 12 }, (_, n) => ({ n })),
    );
    const events: SQSEvent[] = [];
    await poll(async (event) => void events.push(event)).idle();

    expect(events.map((event) => event.Records.length)).toEqual([10, 2]);
    expect(events.flatMap(bodies)).toEqual(Array.from({ length: 12 }, (_, n) => ({ n })));
    const record = events[0]?.Records[0] as SQSRecord;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: sqs.queueArn('ingestion'),
      awsRegion: 'us-east-1',
      messageAttributes: {},
      md5OfBody: createHash('md5').update(record.body).digest('hex'),
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d+$/),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
      },
    });
  });

  it('retries only the messages listed in batchItemFailures', async () => {
    await queue.send('ingestion', [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    const events: SQSEvent[] = [];
    await poll(async (event) => {
      events.push(event);
      const failed = event.Records.filter(
        (record) => record.body.includes('"b"') && record.attributes.ApproximateReceiveCount === '1',
      );
      return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.messageId })) };
    }).idle();

    expect(events.map(bodies)).toEqual([[{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ id: 'b' }]]);
    expect(receiveCounts(events[1] as SQSEvent)).toEqual(['2']);
  });

  it('retries the whole batch when the handler throws', async () => {
    await queue.send('ingestion', [{ id: 'a' }, { id: 'b' }]);
    const events: SQSEvent[] = [];
    const errors: unknown[] = [];
    await poll(
      async (event) => {
        events.push(event);
        if (events.length === 1) throw new Error('transient');
      },
      { onError: (error) => errors.push(error) },
    ).idle();

    const [first, ...retries] = events as [SQSEvent, ...SQSEvent[]];
    expect(bodies(first)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(receiveCounts(first)).toEqual(['1', '1']);
    // Both come back once their visibility timeout ends, in one batch or in two, as SQS may hand them out.
    expect(retries.flatMap(bodies)).toEqual(expect.arrayContaining([{ id: 'a' }, { id: 'b' }]));
    expect(retries.flatMap(receiveCounts)).toEqual(['2', '2']);
    expect(errors).toEqual([new Error('transient')]);
  });

  it("fails the whole batch when the handler outruns the consumer's timeout, as Lambda does", async () => {
    await queue.send('ingestion', [{ id: 'a' }, { id: 'b' }]);
    const events: SQSEvent[] = [];
    const errors: unknown[] = [];
    await poll(
      async (event) => {
        events.push(event);
        // Past the 1 s timeout, and answering no failure: Lambda still fails the batch.
        if (events.length === 1) await delay(1_200);
        return { batchItemFailures: [] };
      },
      { onError: (error) => errors.push(error) },
    ).idle();

    expect(events.map(receiveCounts)).toEqual([
      ['1', '1'],
      ['2', '2'],
    ]);
    expect(errors).toEqual([new LambdaTimeoutError('ingestion-consumer', 1_000)]);
  });

  it('fails the whole batch when batchItemFailures names a message not in it, as Lambda does', async () => {
    await queue.send('ingestion', [{ id: 'a' }, { id: 'b' }]);
    const events: SQSEvent[] = [];
    const errors: unknown[] = [];
    await poll(
      async (event) => {
        events.push(event);
        return events.length === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] } : undefined;
      },
      { onError: (error) => errors.push(error) },
    ).idle();

    expect(events.map(bodies)).toEqual([
      [{ id: 'a' }, { id: 'b' }],
      [{ id: 'a' }, { id: 'b' }],
    ]);
    expect(errors).toHaveLength(1);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount failed receives', async () => {
    await queue.send('ingestion', [{ id: 'poison' }]);
    let calls = 0;
    await poll(
      async () => {
        calls += 1;
        throw new Error('always');
      },
      { onError: () => undefined },
    ).idle();

    expect(calls).toBe(fast.maxReceiveCount);
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({ QueueUrl: sqs.deadLetterQueueUrl('ingestion'), AttributeNames: ['All'] }),
    );
    expect(Messages.map((message) => JSON.parse(message.Body ?? ''))).toEqual([{ id: 'poison' }]);
    expect(Messages[0]?.Attributes?.DeadLetterQueueSourceArn).toBe(sqs.queueArn('ingestion'));
  });

  it('stop() waits for the batch in flight, which then completes', async () => {
    await queue.send('ingestion', [{ id: 'slow' }]);
    let started!: () => void;
    let release!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const poller = poll(async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await handlerStarted;

    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await delay(200);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await messageCount(sqs.queueUrl('ingestion'))).toBe(0);
  });

  it('stop() makes a failed batch visible again, so a clean stop can save it', async () => {
    // The local server counts a visibility change as a receive, so the redrive limit must leave room for it.
    const slow: QueueSettings = { ...fast, visibilityTimeoutSeconds: 60, maxReceiveCount: 5 };
    await sqs.close();
    sqs = await startSqsServer({ settings: everyQueue(slow) });
    queue = createSqsQueue(sqs.client, sqs.queueUrl);
    await queue.send('ingestion', [{ id: 'fails' }, { id: 'works' }]);
    let handled!: () => void;
    const handledOnce = new Promise<void>((resolve) => (handled = resolve));
    const poller = poll(async (event) => {
      handled();
      return {
        batchItemFailures: event.Records.filter((record) => record.body.includes('fails')).map((record) => ({
          itemIdentifier: record.messageId,
        })),
      };
    });
    await handledOnce;
    await poller.stop();
    const saved = await sqs.snapshot();
    expect(saved.queues.ingestion).toEqual([{ body: '{"id":"fails"}' }]);
    expect(saved.inFlightNotSaved).toBe(0);
  });

  it('snapshot drains every queue and dead-letter queue as JSON, and restore sends them back', async () => {
    await queue.send('ingestion', [{ id: 1 }, { id: 2 }]);
    await queue.send('correlation', [{ id: 3 }, { id: 4 }]);
    await sqs.client.send(
      new SendMessageCommand({
        QueueUrl: sqs.deadLetterQueueUrl('ingestion'),
        MessageBody: 'dead',
        MessageAttributes: {
          kind: { DataType: 'String', StringValue: 'test' },
          raw: { DataType: 'Binary', BinaryValue: Buffer.from([0, 255]) },
        },
      }),
    );
    // Received and not deleted: hidden from the API until its visibility timeout ends.
    await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('correlation'), MaxNumberOfMessages: 1 }));

    const saved = JSON.parse(JSON.stringify(await sqs.snapshot()));
    const queues = {
      ingestion: [{ body: '{"id":1}' }, { body: '{"id":2}' }],
      'ingestion-dlq': [
        {
          body: 'dead',
          attributes: {
            kind: { dataType: 'String', stringValue: 'test' },
            raw: { dataType: 'Binary', binaryValue: 'AP8=' },
          },
        },
      ],
      correlation: [{ body: '{"id":4}' }],
      'correlation-dlq': [],
      'correlation-first': [],
      'correlation-first-dlq': [],
      mail: [],
      'mail-dlq': [],
      notifications: [],
      'notifications-dlq': [],
    };
    expect(saved).toEqual({ queues, inFlightNotSaved: 1 });
    expect(await messageCount(sqs.queueUrl('ingestion'))).toBe(0);
    await sqs.close();

    sqs = await startSqsServer({ settings: everyQueue(fast) });
    await sqs.restore(saved);
    expect(await sqs.snapshot()).toEqual({ queues, inFlightNotSaved: 0 });
  });
});
