import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError } from '#lib/contract/errors.ts';
import type { HttpContext } from './http-context.ts';

/** The parser's message when it refuses a key. */
const FORBIDDEN_KEY = 'Forbidden key in JSON body';

/**
 * Keys that would replace an object's prototype when a parsed body is later copied key by key
 * (`__proto__`, a `constructor` holding a `prototype`): refused while parsing, before any code sees them.
 */
const refuseForbiddenKeys = (key: string, value: unknown): unknown => {
  const replacesPrototype =
    key === '__proto__' ||
    (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value);
  if (replacesPrototype) throw new Error(`${FORBIDDEN_KEY}: ${key}`);
  return value;
};

// The option exists in the parser but not in its type declarations.
const parser = httpJsonBodyParser({ disableContentTypeCheck: true, reviver: refuseForbiddenKeys } as Parameters<
  typeof httpJsonBodyParser
>[0]);

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
        error instanceof Error && error.cause instanceof Object ? (error.cause as { message?: unknown }) : {};
      const forbidden = String(cause.message).match(new RegExp(`^${FORBIDDEN_KEY}: (.+)$`))?.[1];
      if (forbidden) throw new BadRequestError(FORBIDDEN_KEY, [`body: a key named ${forbidden} is not accepted`]);
      throw new BadRequestError('Malformed JSON in request body', [
        `body: ${cause.message === undefined ? 'not valid JSON' : String(cause.message)}`,
      ]);
    }
  },
});
