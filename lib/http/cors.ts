/**
 * Cross-origin access for browsers (README, `allowedOrigins`): an origin is allowed when it is listed
 * exactly, or any origin with `*` (the default). The gateway answers preflights; every response of the functions to an allowed origin names
 * it, so a browser app on that origin can read the answer and the headers below.
 */
export const CORS_ALLOW_HEADERS = ['Content-Type', 'Authorization', 'X-API-Key', 'X-Request-Id'] as const;

/** What a script may read besides the simple headers: the request id and the rate-limit state. */
export const CORS_EXPOSE_HEADERS = [
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
] as const;

/** How long a browser may reuse a preflight answer. */
export const CORS_MAX_AGE_SECONDS = 600;

const allows = (allowed: readonly string[], origin: string | undefined): origin is string =>
  origin !== undefined && (allowed.includes('*') || allowed.includes(origin));

/** The CORS headers of a response to a request from `origin`: none unless it is allowed. */
export const corsHeaders = (allowed: readonly string[], origin: string | undefined): Record<string, string> =>
  allows(allowed, origin)
    ? {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': CORS_EXPOSE_HEADERS.join(', '),
        vary: 'Origin',
      }
    : {};

/** The answer to a preflight for a resource whose methods are `methods`, as the gateway gives it. */
export const preflightHeaders = (
  allowed: readonly string[],
  origin: string | undefined,
  methods: readonly string[],
): Record<string, string> =>
  allows(allowed, origin)
    ? {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': [...methods, 'OPTIONS'].join(','),
        'access-control-allow-headers': CORS_ALLOW_HEADERS.join(','),
        'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
        vary: 'Origin',
      }
    : {};
