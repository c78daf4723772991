import type { APIGatewayProxyResult } from 'aws-lambda';
import { isBinaryMediaType } from './binary-media-types.ts';
import { errorBody, successBody } from './envelope.ts';
import type { RouteResult } from './route.ts';
import { JSON_TYPE } from './content-types.ts';

const baseHeaders = (requestId: string, contentType: string): Record<string, string> => ({
  'content-type': contentType,
  'x-request-id': requestId,
});

/** The API Gateway proxy response of a route's result, in the success envelope unless it is binary. */
export const resultResponse = (result: RouteResult, requestId: string): APIGatewayProxyResult => {
  if (result.kind === 'binary') {
    // API Gateway turns base64 back into bytes only for its binary media types (and only when the client's
    // Accept names one); any other content type, such as a YAML manifest, goes as text so every client reads it.
    const base64 = isBinaryMediaType(result.contentType);
    return {
      statusCode: result.status,
      headers: { ...baseHeaders(requestId, result.contentType), ...result.headers },
      body: result.body.toString(base64 ? 'base64' : 'utf8'),
      isBase64Encoded: base64,
    };
  }
  return {
    statusCode: result.status,
    headers: { ...baseHeaders(requestId, JSON_TYPE), ...result.headers },
    body: JSON.stringify(successBody(result.message, result.data, result.extra)),
  };
};

export const errorResponse = (
  statusCode: number,
  message: string,
  errors: readonly string[],
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): APIGatewayProxyResult => ({
  statusCode,
  headers: { ...baseHeaders(requestId, JSON_TYPE), ...headers },
  body: JSON.stringify(errorBody(message, errors)),
});
