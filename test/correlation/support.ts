import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, expect } from 'vitest';
import { handler as correlationWorker } from '#functions/correlation-worker/index.ts';
import { startQueuePoller, type QueueHandler, type QueuePoller } from '#infra/local/queue-poller.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import { CORRELATION_LANES, isCorrelationLane } from '#lib/signals/correlation-lane.ts';
import { installPorts } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { startTestStack, type TestClient } from '../support/local-stack.ts';

export const RULES = '/api/v1/correlation-rules';
export const SIGNALS = '/api/v1/signals';
export const INCIDENTS = '/api/v1/incident-ticket';

export type Auth = Record<string, string>;

/** The correlation worker as the queue poller calls it. */
export const worker: QueueHandler = (event: SQSEvent, _context: Context) => correlationWorker(event);

/**
 * The correlation worker on the stack's two correlation queues, as Lambda's SQS triggers would run it. A short
 * visibility timeout brings a failed record back within seconds; one batch at a time a queue, since a batch on a
 * busy machine can outlast those 2 s and a second consumer would then receive its messages again (AWS
 * refuses a visibility timeout shorter than the consumer's).
 */
export const startCorrelationWorker = (client: TestClient, handler: QueueHandler = worker): QueuePoller => {
  const lanes = CORRELATION_LANES.map((queue) =>
    startQueuePoller({ sqs: client.stack.queues, queue, handler, visibilityTimeoutSeconds: 2, maxConcurrency: 1 }),
  );
  return {
    stop: async () => {
      await Promise.all(lanes.map((lane) => lane.stop()));
    },
    idle: async () => {
      for (const lane of lanes) await lane.idle();
    },
  };
};

/**
 * A local stack with a correlation worker for the tests of one describe block: started before them and
 * stopped after them. Read `client` and `worker` inside the tests, once `beforeAll` has run.
 */
export const useCorrelatingStack = (): { readonly client: TestClient; readonly worker: QueuePoller } => {
  const stack = {} as { client: TestClient; worker: QueuePoller };
  beforeAll(async () => {
    stack.client = await startTestStack();
    stack.worker = startCorrelationWorker(stack.client);
  });
  afterAll(async () => {
    await stack.worker.stop();
    await stack.client.stack.stop();
  });
  return stack;
};

let counter = 0;
/** A name no other signal of the run has, so each posted signal is a new one (its own fingerprint). */
export const unique = (label: string): string => `${label} ${(counter += 1)}`;

/** Posts a signal (201) and answers its id. */
export const postSignal = async (client: TestClient, auth: Auth, fields: Record<string, unknown>): Promise<string> => {
  const reply = await client.request(
    'POST',
    SIGNALS,
    { source: 'metrics-alerts', ...fields, name: fields.name ?? unique('Alert') },
    auth,
  );
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.id as string;
};

export const getSignal = async (client: TestClient, auth: Auth, id: string): Promise<Record<string, any>> => {
  const reply = await client.request('GET', `${SIGNALS}/${id}`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

export const getIncident = async (client: TestClient, auth: Auth, id: string): Promise<Record<string, any>> => {
  const reply = await client.request('GET', `${INCIDENTS}/${id}`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** Every incident of the caller's workspace, newest first. */
export const listIncidents = async (client: TestClient, auth: Auth): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${INCIDENTS}?limit=100`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** The ticket's history events, chronological. */
export const historyOf = async (client: TestClient, auth: Auth, ticketId: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `/api/v1/tickets/history?ticketId=${ticketId}&limit=100`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

export const createRule = async (
  client: TestClient,
  auth: Auth,
  body: Record<string, unknown>,
): Promise<Record<string, any>> => {
  const reply = await client.request('POST', RULES, body, auth);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
};

/** A queue that keeps what is sent to the correlation queues instead of sending it; other queues work as usual. */
export const capturingQueue = (real: Queue) => {
  const captured: object[] = [];
  const queue: Queue = {
    send: async (name, messages) => {
      if (isCorrelationLane(name)) captured.push(...messages);
      else await real.send(name, messages);
    },
  };
  return { queue, captured };
};

/** Runs `body` with the installed runtime changed by `changes`, then installs the stack's runtime again. */
export const withRuntime = async <T>(runtime: Ports, changes: Partial<Ports>, body: () => Promise<T>): Promise<T> => {
  installPorts({ ...runtime, ...changes });
  try {
    return await body();
  } finally {
    installPorts(runtime);
  }
};

/** An SQS record of the correlation queue carrying `message`, as Lambda hands it to the worker. */
export const recordOf = (message: object, messageId: string = randomUUID()): SQSRecord => ({
  messageId,
  receiptHandle: `handle-${messageId}`,
  body: JSON.stringify(message),
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: String(Date.now()),
    SenderId: 'test',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:correlation',
  awsRegion: 'us-east-1',
});

export const runWorker = (records: SQSRecord[]): Promise<SQSBatchResponse> => correlationWorker({ Records: records });
