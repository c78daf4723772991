import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

type Attributes = Parameters<LogFormatter['formatAttributes']>[0];

/**
 * The line the service has always written, locally and in Lambda: `level` in lower case, `time`,
 * `message`, the request id and the fields; in Lambda also the function, its request id and cold start.
 */
class ServiceLogFormatter extends LogFormatter {
  formatAttributes(attributes: Attributes, fields: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel.toLowerCase(),
        time: this.formatTimestamp(attributes.timestamp),
        message: attributes.message,
        service: attributes.serviceName,
        ...(lambda && {
          function: lambda.functionName,
          awsRequestId: lambda.awsRequestId,
          coldStart: lambda.coldStart,
        }),
        ...(attributes.xRayTraceId && { traceId: attributes.xRayTraceId }),
      },
    }).addAttributes(fields);
  }
}

/**
 * Structured JSON logs through Powertools Logger, one object a line. The level comes from `LOG_LEVEL`
 * (`debug`, `info`, `warn`, `error` or `silent`; `info` by default), read on each line so a test or an
 * operator changing it takes effect at once.
 */
const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'incident-service',
  logFormatter: new ServiceLogFormatter(),
});

const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
type Level = (typeof LEVELS)[number];

const syncLevel = (): void => {
  const wanted = (process.env.LOG_LEVEL ?? 'info').toUpperCase();
  const level: Level = LEVELS.includes(wanted as Level) ? (wanted as Level) : 'INFO';
  if (logger.getLevelName() !== level) logger.setLogLevel(level);
};

interface LogScope {
  requestId: string;
}

/**
 * The request a log line belongs to. An async-local scope rather than the logger's own keys, because the
 * local server runs many requests of one handler at the same time in one process.
 */
const scope = new AsyncLocalStorage<LogScope>();

/** Runs `run` with every log line carrying `requestId`; in Lambda, the invocation's context too. */
export const withLogScope = <T>(requestId: string, run: () => T, context?: Context): T => {
  if (context && process.env.AWS_LAMBDA_FUNCTION_NAME) logger.addContext(context);
  return scope.run({ requestId }, run);
};

type Fields = Record<string, unknown>;

const withRequest = (fields: Fields = {}): Fields => {
  syncLevel();
  return { requestId: scope.getStore()?.requestId, ...fields };
};

export const log = {
  debug: (message: string, fields?: Fields) => logger.debug(message, withRequest(fields)),
  info: (message: string, fields?: Fields) => logger.info(message, withRequest(fields)),
  warn: (message: string, fields?: Fields) => logger.warn(message, withRequest(fields)),
  error: (message: string, fields?: Fields) => logger.error(message, withRequest(fields)),
};
