import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { log } from '#lib/log/logger.ts';
import { HttpError } from '#lib/contract/errors.ts';
import { InvalidCursorError } from '#lib/store/store-errors.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { answersHtml, wantsJsonOnly } from '../html-error.ts';
import { errorResponse } from '../response.ts';
import type { HttpContext } from './http-context.ts';

/**
 * Every error becomes the error envelope, but on a route that answers people with pages (its declared response
 * is `text/html`): there the same status comes with a page, the error's own or one in fixed words. Errors we did not throw on purpose become a bare 500, so no
 * message, stack or dependency detail reaches the caller; the log keeps them.
 */
const htmlErrorPages = onFirstUse(() => import('../html-error-page.ts'));

export const errorEnvelope = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  onError: async (request) => {
    const { error, event } = request;
    const requestId = event.requestContext.requestId;
    if (answersHtml(request.context.route?.spec) && !wantsJsonOnly(event.headers)) {
      const statusCode = error instanceof HttpError ? error.statusCode : 500;
      if (!(error instanceof HttpError)) log.error('unexpected error', { error });
      const { genericErrorPage, htmlErrorResponse } = await htmlErrorPages();
      const page = (error instanceof HttpError && error.page) || genericErrorPage(statusCode, event.path);
      request.response = htmlErrorResponse(
        statusCode,
        page,
        requestId,
        error instanceof HttpError ? error.headers : {},
      );
      return;
    }
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
