import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { log } from '#lib/log/logger.ts';
import { redactPath } from '#lib/log/redact-path.ts';
import type { HttpContext } from './http-context.ts';

type Request = Parameters<
  NonNullable<MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>['after']>
>[0];

const logCompletion = ({ event, context, response }: Request): void => {
  log.info('request completed', {
    method: event.httpMethod,
    // A path may carry a credential (an acknowledge link's token); the log keeps none (docs/security.md).
    path: redactPath(event.path),
    route: context.route ? `${context.route.group}.${context.route.key}` : undefined,
    status: response?.statusCode,
    durationMs: context.startedAt === undefined ? undefined : Date.now() - context.startedAt,
    sourceIp: event.requestContext?.identity?.sourceIp,
  });
};

/**
 * One access line a request. It is the outermost middleware, so its error hook runs after the error
 * envelope has built the response and can log its status.
 */
export const requestLog = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: ({ context }) => {
    context.startedAt = Date.now();
  },
  after: logCompletion,
  onError: logCompletion,
});
