import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { clientSubject, type LimitOutcome } from '#lib/http/rate-limit/limit-window-repository.ts';
import { countRequest } from '#lib/http/rate-limit/limit-window-repository.ts';
import type { LimiterName } from '#lib/ports/rate-limits.ts';
import { TooManyRequestsError, UnauthorizedError } from '#lib/contract/errors.ts';
import { credentialsOf } from '#lib/identity/credentials.ts';
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

const hasCredentials = (event: APIGatewayProxyEvent): boolean => Object.keys(credentialsOf(event)).length > 0;

/**
 * Before anything else of the request runs: a route's own limiter (login, e-mail) per client address,
 * and the global one for a caller with no credentials at all, by address.
 */
export const clientRateLimit = (): Middleware => ({
  before: async ({ event, context }) => {
    const address = clientSubject(event.requestContext.identity.sourceIp);
    const limiter = context.route?.spec.limiter;
    if (limiter) await count(context, limiter, address);
    if (!hasCredentials(event)) await count(context, 'global', address);
  },
});

/**
 * The global limiter, per client as a person means it: a signed-in user by their id, once the token is
 * verified (a team behind one NAT address does not share one budget, and no one can spend another's),
 * and a caller whose credentials the route ignores, or whose credentials fail, by address: guessing tokens
 * spends the guesser's budget, and past it the answer is the 429 instead of the 401. API-key callers are the
 * usage plan's (docs/security.md, "API keys at the gateway"; a bad key never reaches a function in AWS).
 */
export const callerRateLimit = (): Middleware => ({
  before: async ({ event, context }) => {
    const caller = context.caller;
    if (caller?.kind === 'user') await count(context, 'global', `user:${caller.userId}`);
    else if (caller?.kind === 'anonymous' && hasCredentials(event)) {
      await count(context, 'global', clientSubject(event.requestContext.identity.sourceIp));
    }
  },
  onError: async (request) => {
    const { event, context, error } = request;
    if (context.caller || !(error instanceof UnauthorizedError) || !hasCredentials(event)) return;
    try {
      await count(context, 'global', clientSubject(event.requestContext.identity.sourceIp));
    } catch (refused) {
      if (!(refused instanceof TooManyRequestsError)) throw refused;
      request.error = refused;
    }
  },
});
