import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { corsHeaders } from '../cors.ts';
import type { HttpContext } from './http-context.ts';

type Request = Parameters<
  NonNullable<MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>['after']>
>[0];

const addCorsHeaders = ({ event, context, response }: Request): void => {
  if (!response) return;
  const origin = event.headers?.origin ?? event.headers?.Origin;
  response.headers = { ...response.headers, ...corsHeaders(context.ports.allowedOrigins, origin) };
};

/** Names an allowed origin on every response, errors included: it wraps the error envelope. */
export const cors = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  after: addCorsHeaders,
  onError: addCorsHeaders,
});
