import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { createRequestHandler } from 'local-aws-sqs';

/**
 * One embedded AWS stand-in at a time in a worker thread of its own (startStandInThread): the store or the
 * queue server works on a core beside the service, as the real service would, instead of on its event loop.
 * Answers the bound port (or the listen error), a `usage` request with this thread's heap; on `close` it
 * closes the stand-in and answers `closed`, then serves the next one a `start` asks for (a process that starts
 * stacks one after another keeps the thread and its loaded modules), or ends on `exit`.
 */
const HOST = '127.0.0.1';
const require = createRequire(import.meta.url);

/**
 * The store's LevelDB iterators, opened and still open: every abstract-level database attaches an iterator
 * when it opens one and detaches it when it closes. An open iterator holds its snapshot and the blocks it
 * read in native memory, so one left open per Query grows the process (patches/dynalite+*.patch).
 */
const iterators = { opened: 0, open: 0 };
let countingIterators = false;
const countIterators = () => {
  // Counted from each store's start; the prototype is wrapped once per thread.
  iterators.opened = 0;
  iterators.open = 0;
  if (countingIterators) return;
  countingIterators = true;
  const { AbstractLevel, AbstractIterator, AbstractKeyIterator, AbstractValueIterator } = createRequire(
    require.resolve('dynalite'),
  )('abstract-level');
  const kinds = [AbstractIterator, AbstractKeyIterator, AbstractValueIterator];
  const isIterator = (resource) => kinds.some((kind) => resource instanceof kind);
  const { attachResource, detachResource } = AbstractLevel.prototype;
  AbstractLevel.prototype.attachResource = function (resource) {
    if (isIterator(resource)) {
      iterators.opened += 1;
      iterators.open += 1;
    }
    return attachResource.call(this, resource);
  };
  AbstractLevel.prototype.detachResource = function (resource) {
    if (isIterator(resource)) iterators.open -= 1;
    return detachResource.call(this, resource);
  };
};

const STAND_INS = {
  /** dynalite: persisted under `path`, or in memory without one. */
  dynamodb: ({ path }) => {
    countIterators();
    return require('dynalite')({
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
      ...(path && { path }),
    });
  },
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

/** This thread's own heap (process.memoryUsage() in a worker reports the worker's isolate), and the store's iterators. */
const usage = () => {
  const { heapUsed, heapTotal, external } = process.memoryUsage();
  return {
    heapUsedBytes: heapUsed,
    heapTotalBytes: heapTotal,
    externalBytes: external,
    ...(kind === 'dynamodb' && { iterators: { ...iterators } }),
  };
};

/**
 * A request the service's own SDK client posted (stand-in-thread.ts), answered by the stand-in's request
 * handler as if it came over the socket: the few parts of a request and a response that dynalite and
 * local-aws-sqs read. The loopback socket and HTTP on both sides cost more CPU than the stand-in's own work.
 */
const answer = ({ id, method, path, headers, body }) => {
  const request = Object.assign(new EventEmitter(), { method, url: path, headers });
  const response = {
    statusCode: 200,
    headers: {},
    setHeader(name, value) {
      this.headers[name.toLowerCase()] = String(value);
    },
    end(data) {
      const bytes = data === undefined ? new Uint8Array() : Buffer.from(data);
      const post = () =>
        parentPort.postMessage({ id, statusCode: this.statusCode, headers: this.headers, body: bytes });
      // local-aws-sqs finishes some changes in a 0 ms timer (a visibility set to 0, a message's delay of 0):
      // answering from a timer set after them lets them run first, as the socket's round trip did.
      if (kind === 'sqs') setTimeout(post, 0);
      else post();
    },
  };
  server.emit('request', request, response);
  if (body.byteLength > 0) request.emit('data', Buffer.from(body));
  request.emit('end');
};

const { kind } = workerData;
let server;
const start = ({ port = 0, ...options }) => {
  server = STAND_INS[kind](options);
  server.once('error', (error) => parentPort.postMessage({ error: error.message }));
  server.listen(port, HOST, () => parentPort.postMessage({ port: server.address().port }));
};
start(workerData);
parentPort.on('message', (message) => {
  if (message.type === 'request') answer(message);
  else if (message.type === 'usage') parentPort.postMessage({ usage: usage(), id: message.id });
  else if (message.type === 'start') start(message.standIn);
  else if (message.type === 'exit') parentPort.close();
  else if (message.type === 'close') {
    // Clients keep connections alive, and close() alone would wait for them.
    server.closeAllConnections?.();
    server.close(() => parentPort.postMessage({ closed: true }));
  }
});
