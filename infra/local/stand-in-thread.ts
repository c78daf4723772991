import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './local-aws.ts';

/** A thread's own JavaScript heap, in bytes, as `process.memoryUsage()` reports it inside the thread. */
export interface ThreadHeap {
  heapUsedBytes: number;
  heapTotalBytes: number;
  /** Memory outside the heap that the thread's objects hold (buffers), as V8 knows it. */
  externalBytes: number;
}

export interface StandInUsage extends ThreadHeap {
  /** The store's LevelDB iterators: opened since the store started and open now (the store's thread only). */
  iterators?: { opened: number; open: number };
}

/** The parts of an SDK request and response a stand-in reads and answers (`@smithy/types` HttpRequest). */
interface SdkRequest {
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}
interface SdkResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * The SDK client's request handler for a stand-in in this process: each request is posted to the stand-in's
 * thread and answered by its server's own handler, with no socket or HTTP between them (stand-in-thread.mjs).
 */
interface StandInRequestHandler {
  handle(request: SdkRequest): Promise<{ response: SdkResponse }>;
  updateHttpClientConfig(): void;
  httpHandlerConfigs(): Record<string, never>;
}

/**
 * The stand-ins read the shape of SigV4's Authorization header, never its signature: this process's own clients
 * send a fixed header of that shape instead of signing, which was a fifth of a local call's CPU (docs/testing.md).
 */
const UNSIGNED_HEADERS = {
  authorization:
    'AWS4-HMAC-SHA256 Credential=local/20000101/local/local/aws4_request, SignedHeaders=host;x-amz-date, Signature=local',
  'x-amz-date': '20000101T000000Z',
};
const unsigned = {
  httpAuthSchemes: [
    {
      schemeId: 'aws.auth#sigv4',
      // An identity that never expires, so the SDK never asks again.
      identityProvider: () => async () => ({ ...LOCAL_CREDENTIALS, expiration: new Date(8.64e15) }),
      signer: {
        sign: async <Request extends { headers: Record<string, string> }>(request: Request): Promise<Request> => {
          Object.assign(request.headers, UNSIGNED_HEADERS);
          return request;
        },
      },
    },
  ],
};

/**
 * An embedded AWS stand-in running in its own thread (stand-in-thread.mjs), reached over HTTP at `endpoint` by
 * other processes, and through `clientConfig` (its message port, no signing) by this one's SDK clients.
 */
export interface StandInThread {
  endpoint: string;
  /** What this process's SDK clients of the stand-in are configured with: the thread's transport, no signing. */
  clientConfig: {
    endpoint: string;
    region: string;
    credentials: typeof LOCAL_CREDENTIALS;
    requestHandler: StandInRequestHandler;
    httpAuthSchemes: typeof unsigned.httpAuthSchemes;
  };
  usage(): Promise<StandInUsage>;
  close(): Promise<void>;
}

export type StandIn =
  | { kind: 'dynamodb'; path: string | undefined }
  | { kind: 'sqs'; port: number; region: string; accountId: string };

type Reply = { port: number } | { error: string } | { closed: true };
type Answer = { id: number; usage: StandInUsage } | ({ id: number } & SdkResponse);

const bodyBytes = (body: unknown): Uint8Array => {
  if (body === undefined || body === null) return new Uint8Array();
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  throw new Error('a local stand-in takes a string or bytes as a request body');
};

const pathOf = ({ path, query }: SdkRequest): string => {
  const pairs = Object.entries(query ?? {}).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((one) =>
      one === null ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${encodeURIComponent(one)}`,
    ),
  );
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
};

/** A stand-in thread: its replies in order, and its answers (usage, SDK responses) by request id. */
const threadOf = (worker: Worker) => {
  const waiting: ((reply: Reply) => void)[] = [];
  const asked = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  // The thread keeps the process alive while something waits on it, and only then: a process done with its
  // stand-ins is not held open.
  let awaited = 0;
  const awaiting = async <T>(reply: Promise<T>): Promise<T> => {
    awaited += 1;
    worker.ref();
    try {
      return await reply;
    } finally {
      awaited -= 1;
      if (awaited === 0) worker.unref();
    }
  };
  worker.on('message', (message: Reply | Answer) => {
    if ('id' in message) {
      asked.get(message.id)?.(message);
      asked.delete(message.id);
    } else waiting.shift()?.(message);
  });
  const ask = (message: object): Promise<Answer> =>
    awaiting(
      new Promise((resolve) => {
        nextId += 1;
        asked.set(nextId, resolve);
        worker.postMessage({ ...message, id: nextId });
      }),
    );
  return {
    worker,
    /** Sends `message` (none: the thread's first start) and answers the thread's reply to it. */
    request: (message?: object): Promise<Reply> =>
      awaiting(
        new Promise<Reply>((resolve) => {
          waiting.push(resolve);
          if (message) worker.postMessage(message);
        }),
      ),
    usage: async (): Promise<StandInUsage> => {
      const answer = await ask({ type: 'usage' });
      if (!('usage' in answer)) throw new Error('the stand-in answered no usage');
      return answer.usage;
    },
    requestHandler: {
      handle: async (request: SdkRequest) => {
        // Header names as Node's HTTP server gives them to the stand-in: lower case.
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
        );
        const answer = await ask({
          type: 'request',
          method: request.method,
          path: pathOf(request),
          headers,
          body: bodyBytes(request.body),
        });
        if (!('statusCode' in answer)) throw new Error('the stand-in answered no response');
        const { statusCode, headers: responseHeaders, body } = answer;
        return { response: { statusCode, headers: responseHeaders, body } };
      },
      updateHttpClientConfig: () => {},
      httpHandlerConfigs: () => ({}),
    } satisfies StandInRequestHandler,
  };
};

type Thread = ReturnType<typeof threadOf>;

/**
 * Threads whose stand-in closed, by kind, kept for the next stand-in of that kind: starting a thread and
 * loading dynalite or the queue server in it costs about 0.4 s of CPU, and the test suite starts some 300
 * stand-ins one after another, a few per worker process at a time. A kept thread holds no data: its store or
 * queues closed with their stand-in. Unreferenced, it never keeps a process alive.
 */
const idle = new Map<StandIn['kind'], Thread[]>();

const threadFor = async (standIn: StandIn): Promise<{ thread: Thread; reply: Reply }> => {
  const kept = idle.get(standIn.kind)?.pop();
  if (kept) return { thread: kept, reply: await kept.request({ type: 'start', standIn }) };
  const thread = threadOf(new Worker(new URL('./stand-in-thread.mjs', import.meta.url), { workerData: standIn }));
  return { thread, reply: await thread.request() };
};

const exit = async ({ worker }: Thread): Promise<void> => {
  const exited = once(worker, 'exit');
  worker.ref();
  worker.postMessage({ type: 'exit' });
  await exited;
};

/**
 * Starts the stand-in in a worker thread, so that on a machine with two or more cores the store and the
 * queues answer beside the service rather than between its requests. Plain JavaScript, so the thread
 * runs alike under tsx, vitest and node.
 */
export const startStandInThread = async (standIn: StandIn): Promise<StandInThread> => {
  const { thread, reply } = await threadFor(standIn);
  if (!('port' in reply)) {
    await exit(thread);
    throw new Error(`${standIn.kind} stand-in: ${'error' in reply ? reply.error : 'no port'}`);
  }
  const endpoint = `http://127.0.0.1:${reply.port}`;
  return {
    endpoint,
    clientConfig: {
      endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      requestHandler: thread.requestHandler,
      ...unsigned,
    },
    usage: thread.usage,
    close: async () => {
      await thread.request({ type: 'close' });
      idle.set(standIn.kind, [...(idle.get(standIn.kind) ?? []), thread]);
    },
  };
};
