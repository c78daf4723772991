import { once } from 'node:events';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RECORDED_HEADER } from './sdk-calls.ts';

/** One request of the JSON protocol (DynamoDB, SQS) as it reached the server: who signed it, the operation. */
interface WireCall {
  /** The access key id of the signature: the bundles test gives each function its own name as its key. */
  caller: string;
  /** `DynamoDB_20120810.PutItem`, `AmazonSQS.SendMessage`. */
  target: string;
  /** Whether the client's recording middleware saw the command: false for a client made outside the factory. */
  recorded: boolean;
}

export interface RecordingProxy {
  endpoint: string;
  calls: WireCall[];
  /**
   * Answers the caller's requests of `target` as DynamoDB answers a write over the table's capacity, every
   * retry of its SDK included, until the function returned is called.
   */
  throttle(caller: string, target: string): () => void;
  stop(): Promise<void>;
}

const CREDENTIAL = /Credential=([^/]+)\//;

/**
 * An HTTP proxy in front of a local AWS-API server that records every request on the wire before passing it
 * on: whatever client sent it, its call is seen, and whether the recording middleware saw it too (the proof
 * judges what the middleware reports, so a request it did not see is a client made outside the factory).
 */
export const startRecordingProxy = async (target: string): Promise<RecordingProxy> => {
  const calls: WireCall[] = [];
  const throttled = new Set<string>();
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const caller = CREDENTIAL.exec(String(incoming.headers.authorization ?? ''))?.[1] ?? '(unsigned)';
      calls.push({
        caller,
        target: String(incoming.headers['x-amz-target'] ?? ''),
        recorded: incoming.headers[RECORDED_HEADER] !== undefined,
      });
      if (throttled.has(`${caller} ${incoming.headers['x-amz-target']}`)) {
        const type = 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException';
        outgoing.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        outgoing.end(
          JSON.stringify({ __type: type, message: 'The level of configured provisioned throughput was exceeded' }),
        );
        return;
      }
      const onward = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (reply) => {
          outgoing.writeHead(reply.statusCode ?? 500, reply.headers);
          reply.pipe(outgoing);
        },
      );
      onward.on('error', (error) => outgoing.destroy(error));
      onward.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    throttle: (caller, operation) => {
      throttled.add(`${caller} ${operation}`);
      return () => throttled.delete(`${caller} ${operation}`);
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
