import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { clientSubject, countRequest, type LimitOutcome } from '#lib/http/rate-limit/limit-window-repository.ts';
import type { LimiterName } from '#lib/ports/rate-limits.ts';
import { TooManyRequestsError } from '#lib/contract/errors.ts';
import type { HttpContext } from './http-context.ts';

type Middleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;

/** The limiter's own wording (DECISIONS.md): no full stop. */
export const TOO_MANY_REQUESTS = 'Too many requests, please try again later';

/** The outcome a response reports: a refusal, else the limiter closest to refusing. */
const binding = (current: LimitOutcome | undefined, next: LimitOutcome): LimitOutcome =>
  !current || !next.allowed || (current.allowed && next.remaining <= current.remaining) ? next : current;

const count = async (context: HttpContext, limiter: LimiterName, subject: string): Promise<void> => {
  const { table, rateLimits, clock } = context.ports;
  const outcome = await countRequest(table, limiter, subject, rateLimits[limiter], clock.now());
  context.rateLimit = binding(context.rateLimit, outcome);
  if (!outcome.allowed) {
    throw new TooManyRequestsError(TOO_MANY_REQUESTS, [], { 'retry-after': String(outcome.resetSeconds) });
  }
};

/**
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every response a limiter counted,
 * errors and 429s included; it wraps the error envelope so it sees the response that builds.
 */
export const rateLimitHeaders = (): Middleware => {
  const addHeaders = ({
    context,
    response,
  }: {
    context: HttpContext;
    response: APIGatewayProxyResult | null | undefined;
  }) => {
    const outcome = context.rateLimit;
    if (!outcome || !response) return;
    response.headers = {
      ...response.headers,
      'ratelimit-limit': String(outcome.limit),
      'ratelimit-remaining': String(outcome.remaining),
      'ratelimit-reset': String(outcome.resetSeconds),
    };
  };
  return { after: addHeaders, onError: addHeaders };
};

/** The per-client limiters: the global one on every route, and the route's own (login, e-mail) if it has one. */
export const clientRateLimit = (): Middleware => ({
  before: async ({ event, context }) => {
    const client = clientSubject(event.requestContext.identity.sourceIp);
    await count(context, 'global', client);
    const limiter = context.route?.spec.limiter;
    if (limiter) await count(context, limiter, client);
  },
});
