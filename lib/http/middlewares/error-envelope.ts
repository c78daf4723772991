import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { log } from '#lib/log/logger.ts';
import { HttpError } from '#lib/contract/errors.ts';
import { InvalidCursorError } from '#lib/store/store-errors.ts';
import { errorResponse } from '../response.ts';
import type { HttpContext } from './http-context.ts';

/**
 * Every error becomes the error envelope. Errors we did not throw on purpose become a bare 500, so no
 * message, stack or dependency detail reaches the caller; the log keeps them.
 */
export const errorEnvelope = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  onError: (request) => {
    const { error, event } = request;
    const requestId = event.requestContext.requestId;
    if (error instanceof HttpError) {
      request.response = errorResponse(error.statusCode, error.message, error.errors, requestId, error.headers);
      return;
    }
    // The store kit decodes cursors where lists are read; the refusal is the caller's mistake, not ours.
    if (error instanceof InvalidCursorError) {
      request.response = errorResponse(400, 'Validation failed', [error.message], requestId);
      return;
    }
    log.error('unexpected error', { error });
    request.response = errorResponse(500, 'Internal server error', [], requestId);
  },
});
