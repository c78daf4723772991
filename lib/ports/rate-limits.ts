const LIMITER_NAMES = ['global', 'login', 'email', 'apikey'] as const;
export type LimiterName = (typeof LIMITER_NAMES)[number];

export interface LimitWindow {
  limit: number;
  windowSeconds: number;
}

export type RateLimits = Record<LimiterName, LimitWindow>;

/** The spec's Limits table. */
export const DEFAULT_RATE_LIMITS = 'global=200/15m,login=10/15m,email=3/1m,apikey=100/1m';

const ENTRY = /^(global|login|email|apikey)=(\d+)\/(\d+)([smh])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;

const parseEntries = (text: string): Partial<RateLimits> =>
  Object.fromEntries(
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => {
        const match = ENTRY.exec(entry);
        if (!match) throw new Error(`rate limit "${entry}" is not <global|login|email|apikey>=<count>/<n><s|m|h>`);
        const [, name, limit, amount, unit] = match as unknown as [
          string,
          LimiterName,
          string,
          string,
          keyof typeof UNIT_SECONDS,
        ];
        const window = { limit: Number(limit), windowSeconds: Number(amount) * UNIT_SECONDS[unit] };
        if (window.limit < 1 || window.windowSeconds < 1)
          throw new Error(`rate limit "${entry}" must be at least 1/1s`);
        return [name, window];
      }),
  );

/**
 * `global=200/15m,login=10/15m,...` as in RATE_LIMITS (locally) or the `rateLimits` context (in AWS);
 * a limiter left out keeps the spec's default.
 */
export const parseRateLimits = (text: string | undefined): RateLimits => ({
  ...(parseEntries(DEFAULT_RATE_LIMITS) as RateLimits),
  ...parseEntries(text ?? ''),
});
