import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

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

/** An embedded AWS stand-in running in its own thread (stand-in-thread.mjs), reached over HTTP. */
export interface StandInThread {
  endpoint: string;
  usage(): Promise<StandInUsage>;
  close(): Promise<void>;
}

export type StandIn =
  | { kind: 'dynamodb'; path: string | undefined }
  | { kind: 'sqs'; port: number; region: string; accountId: string };

type Reply = { port: number } | { error: string } | { closed: true };

/** A stand-in thread, its replies in order and its usage answers by request. */
const threadOf = (worker: Worker) => {
  const waiting: ((reply: Reply) => void)[] = [];
  const asked = new Map<number, (usage: StandInUsage) => void>();
  let nextId = 0;
  worker.on('message', (message: Reply | { id: number; usage: StandInUsage }) => {
    if ('usage' in message) {
      asked.get(message.id)?.(message.usage);
      asked.delete(message.id);
    } else waiting.shift()?.(message);
  });
  return {
    worker,
    /**
     * Sends `message` (none: the thread's first start) and answers the thread's reply to it. The thread keeps
     * the process alive while it is asked, and only then: a process done with its stand-ins is not held open.
     */
    request: (message?: object): Promise<Reply> => {
      worker.ref();
      return new Promise<Reply>((resolve) => {
        waiting.push(resolve);
        if (message) worker.postMessage(message);
      }).finally(() => worker.unref());
    },
    usage: (): Promise<StandInUsage> =>
      new Promise((resolve) => {
        nextId += 1;
        asked.set(nextId, resolve);
        worker.postMessage({ type: 'usage', id: nextId });
      }),
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
  return {
    endpoint: `http://127.0.0.1:${reply.port}`,
    usage: thread.usage,
    close: async () => {
      await thread.request({ type: 'close' });
      idle.set(standIn.kind, [...(idle.get(standIn.kind) ?? []), thread]);
    },
  };
};
