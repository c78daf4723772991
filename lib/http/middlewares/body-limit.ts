import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { PayloadTooLargeError } from '#lib/contract/errors.ts';
import type { HttpContext } from './http-context.ts';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const bodyBytes = (event: APIGatewayProxyEvent): number =>
  event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;

/** Refuses bodies over the route's limit (1 MiB unless the route says otherwise) before parsing them. */
export const bodyLimit = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: ({ event, context }) => {
    const limit = context.route?.spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (bodyBytes(event) > limit) {
      throw new PayloadTooLargeError('Request body too large', [`body: must be at most ${limit} bytes`]);
    }
  },
});
