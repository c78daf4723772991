import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError } from '#lib/contract/errors.ts';
import { fieldMessages, type RequestPart } from '#lib/contract/field-messages.ts';
import type { HttpContext } from './http-context.ts';

/**
 * Validates path, query and body with the route's zod schemas and reports every bad field of every
 * part at once, so a client fixes its request in one round trip.
 */
export const requestValidation = (): MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  HttpContext
> => ({
  before: ({ event, context }) => {
    const schemas = context.route?.spec.request ?? {};
    const raw: Record<RequestPart, unknown> = {
      params: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      body: event.body ?? undefined,
    };
    const parsed: Record<RequestPart, unknown> = { ...raw };
    const errors: string[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const result = schema.safeParse(raw[part]);
      if (result.success) parsed[part] = result.data;
      else errors.push(...fieldMessages(part, result.error));
    }
    if (errors.length > 0) throw new BadRequestError('Validation failed', errors);
    context.parsed = parsed;
  },
});
