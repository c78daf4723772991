import { ENV } from './env.ts';
import type { PortNeed } from './need.ts';
import { parseRateLimits } from './rate-limits.ts';

/** The limiter settings every route group counts requests against. */
export const rateLimitSettings: PortNeed = {
  binding: { kind: 'rateLimits' },
  build: { rateLimits: (env) => parseRateLimits(env[ENV.rateLimits]) },
};
