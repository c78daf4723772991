import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError } from '#lib/contract/errors.ts';
import type { HttpContext } from './http-context.ts';

const parser = httpJsonBodyParser({ disableContentTypeCheck: true });

/** The parser's message when it refuses a key. */
const FORBIDDEN_KEY = 'Forbidden key in JSON body';

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
      const cause =
        error instanceof Error && error.cause instanceof Object
          ? (error.cause as { message?: unknown; data?: unknown })
          : {};
      // The parser refuses keys that would replace an object's prototype (`__proto__`, a `constructor` with a `prototype`).
      if (error instanceof Error && error.message === FORBIDDEN_KEY) {
        throw new BadRequestError(FORBIDDEN_KEY, [`body: a key named ${String(cause.data)} is not accepted`]);
      }
      throw new BadRequestError('Malformed JSON in request body', [
        `body: ${cause.message === undefined ? 'not valid JSON' : String(cause.message)}`,
      ]);
    }
  },
});
