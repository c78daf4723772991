import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { withSecurityHeaders } from '../security-headers.ts';
import type { HttpContext } from './http-context.ts';

type Middleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;

/** Next to the outermost, so it sees every answer, errors and 429s included, as it leaves. */
export const securityHeaders = (): Middleware => {
  const addHeaders = (request: { event: APIGatewayProxyEvent; response: APIGatewayProxyResult | null }) => {
    if (request.response) request.response = withSecurityHeaders(request.event, request.response);
  };
  return { after: addHeaders, onError: addHeaders };
};
