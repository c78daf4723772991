import { ENV } from './env.ts';
import type { PortNeed } from './need.ts';

/**
 * Any origin unless a deployment narrows it: the API's credentials are headers a script sets itself
 * (Bearer tokens, API keys), never cookies a browser attaches on its own, so a page on another origin can
 * do nothing with the API that its user's token does not already allow.
 */
export const DEFAULT_ALLOWED_ORIGINS = '*';
/** The setting that turns CORS off: no preflights, no origin named. */
const NO_ORIGINS = 'none';

/** `allowedOrigins` / `ALLOWED_ORIGINS`: `*`, `none`, or origins separated by commas. */
export const parseAllowedOrigins = (value: string): readonly string[] =>
  value.trim() === NO_ORIGINS
    ? []
    : value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);

/** The browser origins every route group answers (CORS). */
export const corsSettings: PortNeed = {
  binding: { kind: 'cors' },
  build: { allowedOrigins: (env) => parseAllowedOrigins(env[ENV.allowedOrigins] ?? NO_ORIGINS) },
};
