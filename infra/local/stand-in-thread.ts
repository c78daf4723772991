import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/** An embedded AWS stand-in running in its own thread (stand-in-thread.mjs), reached over HTTP. */
export interface StandInThread {
  endpoint: string;
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
  return {
    endpoint: `http://127.0.0.1:${started.port}`,
    close: async () => {
      const exited = once(thread, 'exit');
      thread.ref();
      thread.postMessage('close');
      await exited;
    },
  };
};
