import { EventEmitter } from 'node:events';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
  type Message,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import { LOCAL_REGION } from './local-aws.ts';
import { type StandInUsage, startStandInThread } from './stand-in-thread.ts';
import { MAX_MESSAGE_BYTES, QUEUE_NAMES, type QueueName } from '#lib/ports/queue/queue.ts';
import { QUEUE_SETTINGS, deadLetterQueueName, type QueueSettings } from '#lib/ports/queue/queue-settings.ts';
import { newAwsClient } from '#lib/ports/aws-client.ts';

const ACCOUNT_ID = '123456789012';
const SQS_BATCH_LIMIT = 10;
/** The commands after which a queue may hold messages a receive would return. */
const ARRIVING_COMMANDS = new Set([
  'SendMessageCommand',
  'SendMessageBatchCommand',
  'ChangeMessageVisibilityCommand',
  'ChangeMessageVisibilityBatchCommand',
]);

interface SavedAttribute {
  dataType: string;
  stringValue?: string;
  /** Base64, so the snapshot stays plain JSON. */
  binaryValue?: string;
}

interface SavedMessage {
  body: string;
  attributes?: Record<string, SavedAttribute>;
}

/**
 * Queued messages by queue name, dead-letter queues included. Message ids, receive counts and the
 * dead-letter source are not kept: SendMessage cannot set them, as after a redrive in AWS.
 */
interface SavedMessages {
  queues: Record<string, SavedMessage[]>;
  /** Received but not yet deleted or visible again (a failed batch waiting out its visibility timeout): the API cannot read these, so they are lost. */
  inFlightNotSaved: number;
}

export interface LocalSqs {
  endpoint: string;
  region: string;
  client: SQSClient;
  settings: Readonly<Record<QueueName, QueueSettings>>;
  queueUrl(name: QueueName): string;
  queueArn(name: QueueName): string;
  deadLetterQueueUrl(name: QueueName): string;
  /**
   * Calls `listener` whenever messages may have become visible on the queue at `queueUrl` through this
   * client (a send, or a visibility change): pollers hand them to their worker at once. Answers the
   * function that stops listening.
   */
  onArrival(queueUrl: string, listener: () => void): () => void;
  /** Drains every queue and dead-letter queue into plain JSON; stop the pollers first. */
  snapshot(): Promise<SavedMessages>;
  /** Sends saved messages back to the queues of the same names. */
  restore(saved: SavedMessages): Promise<void>;
  /** The queue server thread's heap (`GET /_local/metrics`). */
  usage(): Promise<StandInUsage>;
  close(): Promise<void>;
}

export interface SqsServerOptions {
  /** 0, the default, picks a free port. */
  port?: number;
  /** Tests shorten visibility timeouts and receive counts here. */
  settings?: Record<QueueName, QueueSettings>;
}

const arnOf = (name: string): string => `arn:aws:sqs:${LOCAL_REGION}:${ACCOUNT_ID}:${name}`;

/** Deletes received messages; SQS takes at most ten per call. */
export const deleteMessages = async (
  client: SQSClient,
  queueUrl: string,
  messages: readonly Message[],
): Promise<void> => {
  for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
    const batch = messages.slice(start, start + SQS_BATCH_LIMIT);
    const result = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle })),
      }),
    );
    if (result.Failed?.length) throw new Error(`${result.Failed.length} message(s) not deleted from ${queueUrl}`);
  }
};

const toSavedAttribute = ({ DataType, StringValue, BinaryValue }: MessageAttributeValue): SavedAttribute => ({
  dataType: DataType ?? 'String',
  ...(StringValue !== undefined && { stringValue: StringValue }),
  ...(BinaryValue !== undefined && { binaryValue: Buffer.from(BinaryValue).toString('base64') }),
});

const toSaved = (message: Message): SavedMessage => ({
  body: message.Body ?? '',
  ...(message.MessageAttributes && {
    attributes: Object.fromEntries(
      Object.entries(message.MessageAttributes).map(([name, value]) => [name, toSavedAttribute(value)]),
    ),
  }),
});

const toAttributeValue = ({ dataType, stringValue, binaryValue }: SavedAttribute): MessageAttributeValue => ({
  DataType: dataType,
  StringValue: stringValue,
  BinaryValue: binaryValue === undefined ? undefined : Buffer.from(binaryValue, 'base64'),
});

/** The embedded SQS-API server with every work queue and its dead-letter queue, configured as in the stack. */
export const startSqsServer = async ({
  port = 0,
  settings = QUEUE_SETTINGS,
}: SqsServerOptions = {}): Promise<LocalSqs> => {
  for (const name of QUEUE_NAMES) {
    // The server silently turns a visibility timeout of 0 into 30 s.
    if (settings[name].visibilityTimeoutSeconds < 1)
      throw new RangeError(`queue ${name}: visibility timeout must be >= 1 s`);
  }
  const thread = await startStandInThread({ kind: 'sqs', port, region: LOCAL_REGION, accountId: ACCOUNT_ID });
  const { endpoint } = thread;
  const client = newAwsClient(SQSClient, { ...thread.clientConfig, cacheMiddleware: true });

  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (ARRIVING_COMMANDS.has(context.commandName ?? ''))
        arrivals.emit((args.input as { QueueUrl?: string }).QueueUrl ?? '');
      return output;
    },
    { step: 'initialize', name: 'announceArrivals' },
  );

  const urls = new Map<string, string>();
  const createQueue = async (name: string, attributes: Record<string, string>): Promise<void> => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    if (!QueueUrl) throw new Error(`CreateQueue ${name} returned no URL`);
    urls.set(name, QueueUrl);
  };
  for (const name of QUEUE_NAMES) {
    const { visibilityTimeoutSeconds, maxReceiveCount } = settings[name];
    const maximumMessageSize = { MaximumMessageSize: String(MAX_MESSAGE_BYTES) };
    await createQueue(deadLetterQueueName(name), maximumMessageSize);
    await createQueue(name, {
      ...maximumMessageSize,
      VisibilityTimeout: String(visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arnOf(deadLetterQueueName(name)), maxReceiveCount }),
    });
  }
  const urlOf = (name: string): string => {
    const url = urls.get(name);
    if (!url) throw new Error(`no local queue named ${name}`);
    return url;
  };

  const inFlight = async (url: string): Promise<number> => {
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessagesNotVisible'] }),
    );
    return Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
  };
  const drain = async (url: string): Promise<SavedMessage[]> => {
    const saved: SavedMessage[] = [];
    for (;;) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: SQS_BATCH_LIMIT,
          MessageAttributeNames: ['All'],
        }),
      );
      if (!Messages.length) return saved;
      saved.push(...Messages.map(toSaved));
      await deleteMessages(client, url, Messages);
    }
  };
  const send = async (url: string, messages: readonly SavedMessage[]): Promise<void> => {
    for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
      const batch = messages.slice(start, start + SQS_BATCH_LIMIT);
      const result = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: batch.map((message, index) => ({
            Id: String(index),
            MessageBody: message.body,
            MessageAttributes:
              message.attributes &&
              Object.fromEntries(
                Object.entries(message.attributes).map(([name, value]) => [name, toAttributeValue(value)]),
              ),
          })),
        }),
      );
      if (result.Failed?.length) throw new Error(`${result.Failed.length} saved message(s) not accepted by ${url}`);
    }
  };

  return {
    endpoint,
    region: LOCAL_REGION,
    client,
    settings,
    queueUrl: (name) => urlOf(name),
    queueArn: (name) => arnOf(name),
    deadLetterQueueUrl: (name) => urlOf(deadLetterQueueName(name)),
    onArrival(queueUrl, listener) {
      arrivals.on(queueUrl, listener);
      return () => arrivals.off(queueUrl, listener);
    },
    async snapshot() {
      let inFlightNotSaved = 0;
      for (const url of urls.values()) inFlightNotSaved += await inFlight(url);
      const queues: Record<string, SavedMessage[]> = {};
      for (const [name, url] of urls) queues[name] = await drain(url);
      return { queues, inFlightNotSaved };
    },
    async restore(saved) {
      for (const [name, messages] of Object.entries(saved.queues)) await send(urlOf(name), messages);
    },
    usage: thread.usage,
    async close() {
      client.destroy();
      await thread.close();
    },
  };
};
