import { ENV } from './env.ts';
import type { PortNeed } from './need.ts';

/** `ALLOWED_ORIGINS` as the stack sets it: origins separated by commas. */
export const parseAllowedOrigins = (value: string | undefined): readonly string[] =>
  (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);

/** The browser origins every route group answers (CORS). */
export const corsSettings: PortNeed = {
  binding: { kind: 'cors' },
  build: { allowedOrigins: (env) => parseAllowedOrigins(env[ENV.allowedOrigins]) },
};
