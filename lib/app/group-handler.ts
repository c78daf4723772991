import { createHttpHandler, type GatewayHandler } from '#lib/http/group-handler.ts';
import type { RouteGroup, RouteHandlers } from '#lib/http/route.ts';
import { callerResolver } from './caller-resolver.ts';

/** The Lambda handler of one endpoint group: its route handlers inside the HTTP pipeline, callers resolved by accounts and API keys. */
export const createGroupHandler = <G extends RouteGroup>(group: G, handlers: RouteHandlers<G>): GatewayHandler =>
  createHttpHandler(group, handlers, callerResolver);
