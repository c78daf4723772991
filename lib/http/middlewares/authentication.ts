import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Ports } from '#lib/ports/ports.ts';
import { UnauthorizedError } from '#lib/contract/errors.ts';
import type { Caller } from '#lib/identity/caller.ts';
import { credentialsOf, type Credentials } from '#lib/identity/credentials.ts';
import type { AuthMode } from '../route.ts';
import type { HttpContext } from './http-context.ts';

/**
 * How credentials become a caller. The HTTP layer only finds the credentials; the accounts and API-key
 * capabilities, wired in by the composition root, say whom they name (a bad one throws a 401).
 */
export interface CallerResolver {
  user(ports: Ports, accessToken: string): Promise<Caller>;
  /** `vouched`: what the gateway's authorizer put in the request context, if it vouched for a key. */
  apiKey(ports: Ports, rawKey: string, vouched: unknown): Promise<Caller>;
}

const authenticate = async (
  mode: AuthMode,
  credentials: Credentials,
  resolve: CallerResolver,
  ports: Ports,
  vouched: unknown,
): Promise<Caller> => {
  switch (mode) {
    case 'public':
      return { kind: 'anonymous' };
    case 'optionalBearer':
      return credentials.bearer ? resolve.user(ports, credentials.bearer) : { kind: 'anonymous' };
    case 'bearer':
    case 'account':
      if (credentials.bearer) return resolve.user(ports, credentials.bearer);
      throw new UnauthorizedError('Authentication required: send Authorization: Bearer <access token>');
    case 'bearerOrApiKey':
      if (credentials.bearer) return resolve.user(ports, credentials.bearer);
      if (credentials.headerKey) return resolve.apiKey(ports, credentials.headerKey, vouched);
      throw new UnauthorizedError('Authentication required: send a Bearer token or an X-API-Key header');
    case 'apiKey': {
      if (credentials.bearer) throw new UnauthorizedError('This route takes an API key, not a Bearer token');
      const key = credentials.headerKey ?? credentials.senderKey;
      if (key) return resolve.apiKey(ports, key, vouched);
      throw new UnauthorizedError('API key required: send X-API-Key, ?apiKey= or Authorization: ApiKey <key>');
    }
  }
};

/** Who is calling, by the credentials the route's auth mode accepts; a missing or bad credential is 401. */
export const authentication = (
  resolve: CallerResolver,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: async ({ event, context }) => {
    if (!context.route) return;
    const vouched = event.requestContext.authorizer;
    context.caller = await authenticate(context.route.spec.auth, credentialsOf(event), resolve, context.ports, vouched);
  },
});
