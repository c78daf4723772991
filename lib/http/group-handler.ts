import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { withLogScope } from '#lib/log/logger.ts';
import { accountScope, type Scope } from '#lib/identity/scope.ts';
import { publishMetrics } from '#lib/ports/metrics/publish-metrics.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { toGatewayPath } from './route-matcher.ts';
import type { RouteGroup, RouteHandler, RouteHandlers, RouteRequest } from './route.ts';
import { resultResponse } from './response.ts';
import { ForbiddenError } from '#lib/contract/errors.ts';
import type { HttpContext, ResolvedRoute } from './middlewares/http-context.ts';
import { requestLog } from './middlewares/request-log.ts';
import { securityHeaders } from './middlewares/security-headers.ts';
import { cors } from './middlewares/cors.ts';
import { errorEnvelope } from './middlewares/error-envelope.ts';
import { normalizeHeaders } from './middlewares/normalize-headers.ts';
import { routeIndexKey, routeResolution, type RouteIndex } from './middlewares/route-resolution.ts';
import { bodyLimit } from './middlewares/body-limit.ts';
import { jsonBody } from './middlewares/json-body.ts';
import { requestValidation } from './middlewares/request-validation.ts';
import { callerRateLimit, clientRateLimit, rateLimitHeaders } from './middlewares/rate-limit.ts';
import { authentication, type CallerResolver } from './middlewares/authentication.ts';
import { authorization } from './middlewares/authorization.ts';

export type GatewayHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const indexGroup = <G extends RouteGroup>(group: G, handlers: RouteHandlers<G>): RouteIndex =>
  new Map(
    Object.entries(group.routes).map(([key, spec]): [string, ResolvedRoute] => [
      routeIndexKey(spec.method, toGatewayPath(spec.path)),
      { group: group.name, key, spec, handler: handlers[key] as RouteHandler },
    ]),
  );

const dispatch = async (event: APIGatewayProxyEvent, context: HttpContext): Promise<APIGatewayProxyResult> => {
  const { route, parsed } = context;
  if (!route || !parsed) throw new Error('dispatch reached without a resolved and validated route');
  const caller = context.caller ?? { kind: 'anonymous' };
  const account = accountScope(caller, context.ports);
  const workspaceId = (): string => {
    const id = caller.kind === 'anonymous' ? null : caller.workspaceId;
    if (!id) throw new ForbiddenError('Set up or join a workspace first');
    return id;
  };
  let scope: Scope | undefined;
  const request: RouteRequest = {
    params: parsed.params,
    query: parsed.query,
    body: parsed.body,
    headers: event.headers as Record<string, string>,
    accountScope: account,
    get scope() {
      scope ??= { ...account, workspaceId: workspaceId() };
      return scope;
    },
    requestId: event.requestContext.requestId,
    sourceIp: event.requestContext.identity.sourceIp,
    event,
    rawBody: context.rawBody ?? null,
  } as RouteRequest;
  return resultResponse(await route.handler(request), request.requestId);
};

/**
 * The Lambda entry of one endpoint group: the HTTP middlewares composed once, in the order a request
 * meets them, around a dispatch to the route's handler. The
 * metrics its services counted are published when the response is ready, whatever it is.
 */
export const createHttpHandler = <G extends RouteGroup>(
  group: G,
  handlers: RouteHandlers<G>,
  callers: CallerResolver,
): GatewayHandler => {
  const pipeline = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
    .use(requestLog())
    .use(securityHeaders())
    .use(rateLimitHeaders())
    .use(cors())
    .use(errorEnvelope())
    .use(normalizeHeaders())
    .use(routeResolution(indexGroup(group, handlers)))
    .use(clientRateLimit())
    .use(bodyLimit())
    .use(jsonBody())
    .use(authentication(callers))
    .use(callerRateLimit())
    .use(authorization())
    .use(requestValidation())
    .handler(dispatch);
  return async (event, context) => {
    const ports = portsOf(group);
    try {
      return await withLogScope(
        event.requestContext.requestId,
        () => pipeline(event, Object.assign(context, { ports }) as HttpContext),
        context,
      );
    } finally {
      publishMetrics(group, ports);
    }
  };
};
