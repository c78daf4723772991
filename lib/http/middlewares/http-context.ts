import type { Context } from 'aws-lambda';
import type { LimitOutcome } from '#lib/http/rate-limit/limit-window-repository.ts';
import type { Caller } from '#lib/identity/caller.ts';
import type { Ports } from '#lib/ports/ports.ts';
import type { RouteHandler, RouteSpec } from '../route.ts';

export interface ResolvedRoute {
  group: string;
  key: string;
  spec: RouteSpec;
  handler: RouteHandler;
}

interface ParsedRequest {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** What the HTTP middlewares learn about a request, kept on the per-invocation Lambda context. */
export interface HttpContext extends Context {
  /** The ports the group declares, set before the first middleware runs. */
  ports: Ports;
  startedAt?: number;
  route?: ResolvedRoute;
  caller?: Caller;
  parsed?: ParsedRequest;
  /** The body text before JSON parsing replaced `event.body`, kept for webhook signature checks. */
  rawBody?: string;
  /** The limiter outcome the response reports in its RateLimit-* headers. */
  rateLimit?: LimitOutcome;
}
