import { ResponseType, type GatewayResponseOptions, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CORS_EXPOSE_HEADERS } from '#lib/http/cors.ts';
import { INVALID_API_KEY } from '#lib/http/gateway-answers.ts';

/** API Gateway's own refusals, in the service's error envelope so clients parse one shape. */
const envelope = (message: string, errors = '[]'): Record<string, string> => ({
  'application/json': `{"success":false,"message":${message},"errors":${errors}}`,
});
const literal = (message: string): string => JSON.stringify(message);
// The `...String` context variables are already quoted and escaped for JSON.
const GATEWAY_MESSAGE = '$context.error.messageString';
const TOO_MANY_REQUESTS = literal('Too many requests, please try again later');

/**
 * The gateway's own refusals, in the service's envelope, with the CORS headers a browser needs to read
 * them. A gateway response cannot choose among origins, so with several it names the caller's origin:
 * these answers carry no data, only why the gateway refused.
 */
export const addGatewayResponses = (api: RestApi, allowedOrigins: readonly string[], perKeyLimit: number): void => {
  const cors: Record<string, string> =
    allowedOrigins.length === 0
      ? {}
      : {
          'Access-Control-Allow-Origin':
            allowedOrigins.length === 1 ? `'${allowedOrigins[0]}'` : 'method.request.header.origin',
          'Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS.join(', ')}'`,
          Vary: "'Origin'",
        };
  // The headers every answer of the service carries (docs/security.md), the gateway's own included.
  const secure: Record<string, string> = {
    'X-Content-Type-Options': "'nosniff'",
    'Referrer-Policy': "'no-referrer'",
    'Cache-Control': "'no-store'",
    'Strict-Transport-Security': "'max-age=31536000; includeSubDomains'",
  };
  const addGatewayResponse = (id: string, options: Omit<GatewayResponseOptions, 'responseHeaders'>) =>
    api.addGatewayResponse(id, { ...options, responseHeaders: { ...cors, ...secure } });
  // A path or method outside the route table arrives as "missing authentication token".
  addGatewayResponse('RouteNotFound', {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    templates: envelope(literal('Route not found')),
  });
  addGatewayResponse('RequestTooLarge', {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    templates: envelope(literal('Request body too large')),
  });
  // The throttle is a token bucket refilled at least once a second, so a second's wait always finds room.
  // A gateway response holds constants only: the per-key limit, none left, room again within the second
  // (DECISIONS.md: a 429 carries Retry-After and the RateLimit-* headers).
  api.addGatewayResponse('Throttled', {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    templates: envelope(TOO_MANY_REQUESTS),
    responseHeaders: {
      ...cors,
      ...secure,
      'Retry-After': "'1'",
      'RateLimit-Limit': `'${perKeyLimit}'`,
      'RateLimit-Remaining': "'0'",
      'RateLimit-Reset': "'1'",
    },
  });
  // A revoked, deactivated, rotated or deleted key's mirror is disabled or gone: refused before any function.
  addGatewayResponse('InvalidApiKey', {
    type: ResponseType.INVALID_API_KEY,
    statusCode: '401',
    templates: envelope(literal(INVALID_API_KEY)),
  });
  // The validator's detail is a list of parameter names; without request models it holds no quotes.
  const validationErrors = '["$context.error.validationErrorString"]';
  addGatewayResponse('BadRequestParameters', {
    type: ResponseType.BAD_REQUEST_PARAMETERS,
    statusCode: '400',
    templates: envelope(GATEWAY_MESSAGE, validationErrors),
  });
  addGatewayResponse('BadRequestBody', {
    type: ResponseType.BAD_REQUEST_BODY,
    statusCode: '400',
    templates: envelope(GATEWAY_MESSAGE, validationErrors),
  });
  // The defaults keep API Gateway's status (403, 415, 502, 504, ...) and only reshape the body.
  addGatewayResponse('Default4xx', {
    type: ResponseType.DEFAULT_4XX,
    templates: envelope(GATEWAY_MESSAGE),
  });
  addGatewayResponse('Default5xx', {
    type: ResponseType.DEFAULT_5XX,
    templates: envelope(literal('Internal server error')),
  });
};
