import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError } from '../errors.ts';
import type { HttpContext } from './http-context.ts';

const parser = httpJsonBodyParser({ disableContentTypeCheck: true });

/**
 * Parses any non-empty body as JSON whatever its content type, since `curl -d` and several webhook
 * senders do not label JSON as such; a body that is not JSON is a 400 with the parser's reason.
 */
export const jsonBody = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: async (request) => {
    const { body, isBase64Encoded } = request.event;
    if (!body) return;
    request.context.rawBody = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
    try {
      await parser.before?.(request as never);
    } catch (error) {
      const reason = error instanceof Error && error.cause instanceof Object && 'message' in error.cause ? String(error.cause.message) : 'not valid JSON';
      throw new BadRequestError('Malformed JSON in request body', [`body: ${reason}`]);
    }
  },
});
