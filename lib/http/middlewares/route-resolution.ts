import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { NotFoundError } from '#lib/contract/errors.ts';
import type { HttpContext, ResolvedRoute } from './http-context.ts';

export type RouteIndex = ReadonlyMap<string, ResolvedRoute>;

export const routeIndexKey = (method: string, gatewayPath: string): string => `${method.toUpperCase()} ${gatewayPath}`;

/**
 * Picks the route by method and API Gateway resource path (`/api/v1/incident-ticket/{id}`), which both
 * API Gateway and the local server put in `event.resource`.
 */
export const routeResolution = (
  routes: RouteIndex,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext> => ({
  before: ({ event, context }) => {
    const route = routes.get(routeIndexKey(event.httpMethod, event.resource));
    if (!route) throw new NotFoundError('Route not found');
    context.route = route;
  },
});
