import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { LocalSqs } from '#infra/local/sqs-server.ts';
import type { NormalizedEvent } from '#lib/ingestion/normalized-event.ts';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import type { Table } from '#lib/store/table.ts';
import type { TestClient } from '../support/local-stack.ts';

export const SIGNALS = '/api/v1/signals';
/** A well-formed ULID that names no signal. */
export const UNKNOWN_ID = '01J0000000000000000000000Z';

/** Posts a signal and expects it stored (201); answers `data`. */
export const postSignal = async (
  client: TestClient,
  auth: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{ id: string; status: string; createdAt: string; deduplicated: boolean }> => {
  const reply = await client.request('POST', SIGNALS, body, auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};

export const getSignal = async (
  client: TestClient,
  auth: Record<string, string>,
  id: string,
): Promise<Record<string, any>> => {
  const reply = await client.request('GET', `${SIGNALS}/${id}`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** A canonical trigger event as an ingestion route would hand it to the store. */
export const triggerEvent = (
  overrides: Partial<NormalizedEvent['signal']> = {},
  fingerprint = 'disk-full|db-1',
): NormalizedEvent => ({
  signal: {
    name: 'Disk almost full',
    source: 'metrics-alerts',
    type: 'alert',
    severity: 'HIGH',
    metadata: { host: 'db-1' },
    triggeredAt: '2024-05-01T10:00:00.000Z',
    ...overrides,
  },
  fingerprint,
  action: 'trigger',
});

/**
 * Messages waiting in a queue, visible or not. The local SQS server holds a message just sent as delayed
 * until its next timer tick, even with no delay set; with the server in a thread of its own a read can
 * arrive before that tick, so delayed messages count too (as the queue poller's idle check counts them).
 */
export const queueDepth = async (sqs: LocalSqs, queue: QueueName): Promise<number> => {
  const { Attributes = {} } = await sqs.client.send(
    new GetQueueAttributesCommand({
      QueueUrl: sqs.queueUrl(queue),
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  return Object.values(Attributes).reduce((sum, count) => sum + Number(count), 0);
};

/** Takes every visible message off a queue and answers their bodies. */
export const drainQueue = async (sqs: LocalSqs, queue: QueueName): Promise<string[]> => {
  const bodies: string[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl(queue), MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    if (Messages.length === 0) return bodies;
    for (const message of Messages) {
      bodies.push(message.Body ?? '');
      await sqs.client.send(
        new DeleteMessageCommand({ QueueUrl: sqs.queueUrl(queue), ReceiptHandle: message.ReceiptHandle }),
      );
    }
  }
};

const throttled = (): Error =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
    name: 'ThrottlingException',
    $fault: 'client',
  });

type Command = { input: Record<string, any> };

/** Whether a command writes a signal-store item: a signal, a fingerprint claim or a delivery. */
export const writesSignalStore = (command: Command): boolean => {
  const name = command.constructor.name;
  if (!['PutCommand', 'UpdateCommand', 'DeleteCommand'].includes(name)) return false;
  const pk = String((command.input.Item ?? command.input.Key)?.pk ?? '');
  return /#(SIG|FP|DELIVERY)$/.test(pk);
};

/**
 * Runs `body` with the installed runtime's table throwing a ThrottlingException for the commands `fails`
 * picks, as DynamoDB does once the SDK's own retries are spent; everything else reaches the real table.
 * The stack's runtime is installed again afterwards.
 */
export const withThrottledStore = async <T>(
  runtime: Ports,
  fails: (command: Command) => boolean,
  body: (throttledRuntime: Ports) => Promise<T>,
): Promise<T> => {
  const table: Table = {
    name: runtime.table.name,
    doc: {
      send: (command: Command, ...rest: unknown[]) =>
        fails(command)
          ? Promise.reject(throttled())
          : (runtime.table.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest),
    } as unknown as DynamoDBDocumentClient,
  };
  const throttledRuntime: Ports = { ...runtime, table };
  installPorts(throttledRuntime);
  try {
    return await body(throttledRuntime);
  } finally {
    installPorts(runtime);
  }
};
