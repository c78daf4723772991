import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { toLoggable } from './loggable.ts';

/**
 * Structured JSON logs, one object a line: `level` in lower case, `time`, `message`, `service`, the
 * request id and the fields; in Lambda also the function, its request id, whether it is a cold start and
 * the X-Ray trace id. Warnings and errors go to stderr. Written here rather than through a logging
 * library because that is all the service needs, and a library's 20 KB would be in every cold start.
 * The level comes from `LOG_LEVEL` (`debug`, `info`, `warn`, `error` or `silent`; `info` by default),
 * read on each line so a test or an operator changing it takes effect at once.
 */
const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
type Level = Exclude<(typeof LEVELS)[number], 'silent'>;

const threshold = (): number => {
  const wanted = LEVELS.indexOf((process.env.LOG_LEVEL ?? 'info').toLowerCase() as Level);
  return wanted === -1 ? LEVELS.indexOf('info') : wanted;
};

interface LogScope {
  requestId: string;
  lambda?: { function: string; awsRequestId: string; coldStart: boolean };
}

/**
 * The request a log line belongs to. An async-local scope rather than module state, because the local
 * server runs many requests of one handler at the same time in one process.
 */
const scope = new AsyncLocalStorage<LogScope>();

let coldStart = true;

/** Runs `run` with every log line carrying `requestId`; in Lambda, the invocation's context too. */
export const withLogScope = <T>(requestId: string, run: () => T, context?: Context): T => {
  const inLambda = context && process.env.AWS_LAMBDA_FUNCTION_NAME;
  const lambda = inLambda
    ? { function: context.functionName, awsRequestId: context.awsRequestId, coldStart }
    : undefined;
  if (inLambda) coldStart = false;
  return scope.run({ requestId, ...(lambda && { lambda }) }, run);
};

/** The request id of the current log scope: what work queued from it carries on, so its logs can be followed. */
export const currentRequestId = (): string | undefined => scope.getStore()?.requestId;

type Fields = Record<string, unknown>;

const write = (level: Level, message: string, fields: Fields = {}): void => {
  if (LEVELS.indexOf(level) < threshold()) return;
  const current = scope.getStore();
  const traceId = process.env._X_AMZN_TRACE_ID?.match(/Root=([^;]+)/)?.[1];
  const line = {
    level,
    time: new Date().toISOString(),
    message,
    // The variable ENV.serviceName names (lib/ports/env.ts): the ports log through this module, so it cannot import them.
    service: process.env.SERVICE_NAME ?? 'incident-service',
    ...current?.lambda,
    ...(traceId && { traceId }),
    requestId: current?.requestId,
    ...fields,
  };
  const stream = level === 'warn' || level === 'error' ? process.stderr : process.stdout;
  stream.write(`${JSON.stringify(toLoggable(line))}\n`);
};

export const log = {
  debug: (message: string, fields?: Fields) => write('debug', message, fields),
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
