import type { StandInUsage, ThreadHeap } from './stand-in-thread.ts';

/**
 * The local server's memory as `GET /_local/metrics` reports it (`data.memory`): the process's resident set
 * (every thread's heap, native memory such as the store's LevelDB blocks, and code), and each thread's own
 * JavaScript heap, so a user running it for days can see which part grows.
 */
export interface MemoryReport {
  residentBytes: number;
  threads: {
    /** The handlers, the gateway, the queue pollers and the workers. */
    main: ThreadHeap;
    /** The embedded DynamoDB (dynalite), with its LevelDB iterators. */
    dynamodb: StandInUsage;
    /** The embedded SQS server. */
    sqs: StandInUsage;
  };
}

export interface MemorySources {
  dynamodb: () => Promise<StandInUsage>;
  sqs: () => Promise<StandInUsage>;
}

const mainHeap = (): ThreadHeap => {
  const { heapUsed, heapTotal, external } = process.memoryUsage();
  return { heapUsedBytes: heapUsed, heapTotalBytes: heapTotal, externalBytes: external };
};

export const readMemory = async ({ dynamodb, sqs }: MemorySources): Promise<MemoryReport> => {
  const [store, queues] = await Promise.all([dynamodb(), sqs()]);
  return {
    residentBytes: process.memoryUsage.rss(),
    threads: { main: mainHeap(), dynamodb: store, sqs: queues },
  };
};
