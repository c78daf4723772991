import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { createRequestHandler } from 'local-aws-sqs';

/**
 * One embedded AWS stand-in in a worker thread of its own (startStandInThread): the store or the queue
 * server works on a core beside the service, as the real service would, instead of on its event loop.
 * Answers the bound port (or the listen error), and closes on any message.
 */
const HOST = '127.0.0.1';

const STAND_INS = {
  /** dynalite: persisted under `path`, or in memory without one. */
  dynamodb: ({ path }) =>
    createRequire(import.meta.url)('dynalite')({
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
      ...(path && { path }),
    }),
  /** local-aws-sqs, whose queue URLs carry the port: it learns the bound one before any request. */
  sqs: ({ region, accountId }) => {
    const { service, requestHandler } = createRequestHandler({ port: 0, hostname: HOST, region, accountId });
    const server = createServer(requestHandler);
    server.on('listening', () => {
      service.PORT = server.address().port;
    });
    return server;
  },
};

const { kind, port = 0, ...options } = workerData;
const server = STAND_INS[kind](options);
server.once('error', (error) => parentPort.postMessage({ error: error.message }));
server.listen(port, HOST, () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => {
  // Clients keep connections alive, and close() alone would wait for them.
  server.closeAllConnections?.();
  server.close(() => parentPort.close());
});
