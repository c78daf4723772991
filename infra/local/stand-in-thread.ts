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
  /** The store's LevelDB iterators: opened since the start and open now (the store's thread only). */
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

/**
 * Starts the stand-in in a worker thread, so that on a machine with two or more cores the store and the
 * queues answer beside the service rather than between its requests. Plain JavaScript, so the thread
 * runs alike under tsx, vitest and node.
 */
export const startStandInThread = async (standIn: StandIn): Promise<StandInThread> => {
  const thread = new Worker(new URL('./stand-in-thread.mjs', import.meta.url), { workerData: standIn });
  const [started] = (await once(thread, 'message')) as [{ port: number } | { error: string }];
  if ('error' in started) {
    await thread.terminate();
    throw new Error(`${standIn.kind} stand-in: ${started.error}`);
  }
  // Started, it must not keep alive a process that is done with it.
  thread.unref();
  const asked = new Map<number, (usage: StandInUsage) => void>();
  let nextId = 0;
  thread.on('message', ({ id, usage }: { id: number; usage: StandInUsage }) => {
    asked.get(id)?.(usage);
    asked.delete(id);
  });
  return {
    endpoint: `http://127.0.0.1:${started.port}`,
    usage: () =>
      new Promise((resolve) => {
        nextId += 1;
        asked.set(nextId, resolve);
        thread.postMessage({ type: 'usage', id: nextId });
      }),
    close: async () => {
      const exited = once(thread, 'exit');
      thread.ref();
      thread.postMessage({ type: 'close' });
      await exited;
    },
  };
};
