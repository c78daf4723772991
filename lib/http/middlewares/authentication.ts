import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { sessionVersionOf } from '#lib/accounts/account.ts';
import { getAccount } from '#lib/accounts/account-repository.ts';
import { verifyAccessToken } from '#lib/accounts/tokens.ts';
import { authenticateApiKey } from '#lib/api-keys/api-key-authentication.ts';
import { currentRuntime, type Runtime } from '#lib/runtime/runtime.ts';
import { UnauthorizedError } from '../errors.ts';
import type { AuthMode, Caller } from '../route.ts';
import type { HttpContext } from './http-context.ts';

interface Credentials {
  bearer?: string;
  /** An API key in the `X-API-Key` header, the form every key-accepting route takes. */
  headerKey?: string;
  /** The other two forms, which only ingestion routes take: `?apiKey=` and `Authorization: ApiKey`. */
  senderKey?: string;
}

const credentialsOf = (event: APIGatewayProxyEvent): Credentials => {
  const authorization = event.headers.authorization?.trim() ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  const authorizationKey = /^ApiKey\s+(\S+)$/i.exec(authorization)?.[1];
  const headerKey = event.headers['x-api-key']?.trim() || undefined;
  const senderKey = authorizationKey ?? (event.queryStringParameters?.apiKey?.trim() || undefined);
  return {
    ...(bearer && { bearer }),
    ...(headerKey && { headerKey }),
    ...(senderKey && { senderKey }),
  };
};

/**
 * One strongly consistent read of the account decides everything: whether the token was issued before a
 * credential change (its session version is behind), and the workspace and role the account has now.
 */
const userCaller = async (runtime: Runtime, token: string): Promise<Caller> => {
  const claims = await verifyAccessToken(runtime.signingKeys, token, runtime.clock.now());
  const account = await getAccount(runtime.table, claims.accountId);
  if (!account) throw new UnauthorizedError('Invalid token');
  if (claims.sessionVersion !== sessionVersionOf(account)) {
    throw new UnauthorizedError('Signed out: the account credentials changed, please log in again');
  }
  return {
    kind: 'user',
    userId: account.id,
    email: account.email,
    workspaceId: account.businessId,
    roles: account.roles,
  };
};

const keyCaller = async (runtime: Runtime, raw: string): Promise<Caller> => {
  const key = await authenticateApiKey(runtime.table, raw, runtime.clock.now());
  return { kind: 'apiKey', keyId: key.id, name: key.name, workspaceId: key.workspaceId, scopes: key.scopes };
};

const authenticate = async (mode: AuthMode, credentials: Credentials, runtime: Runtime): Promise<Caller> => {
  switch (mode) {
    case 'public':
      return { kind: 'anonymous' };
    case 'optionalBearer':
      return credentials.bearer ? userCaller(runtime, credentials.bearer) : { kind: 'anonymous' };
    case 'bearer':
    case 'account':
      if (credentials.bearer) return userCaller(runtime, credentials.bearer);
      throw new UnauthorizedError('Authentication required: send Authorization: Bearer <access token>');
    case 'bearerOrApiKey':
      if (credentials.bearer) return userCaller(runtime, credentials.bearer);
      if (credentials.headerKey) return keyCaller(runtime, credentials.headerKey);
      throw new UnauthorizedError('Authentication required: send a Bearer token or an X-API-Key header');
    case 'apiKey': {
      if (credentials.bearer) throw new UnauthorizedError('This route takes an API key, not a Bearer token');
      const key = credentials.headerKey ?? credentials.senderKey;
      if (key) return keyCaller(runtime, key);
      throw new UnauthorizedError('API key required: send X-API-Key, ?apiKey= or Authorization: ApiKey <key>');
    }
  }
};

/** Who is calling, by the credentials the route's auth mode accepts; a missing or bad credential is 401. */
export const authentication = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: async ({ event, context }) => {
    if (!context.route) return;
    context.caller = await authenticate(context.route.spec.auth, credentialsOf(event), currentRuntime());
  },
});
