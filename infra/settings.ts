import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '#lib/ports/rate-limits.ts';
import { parseOAuthProviders } from '#lib/ports/identity-provider/oauth-providers.ts';

export const STAGES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGES)[number];

const DEFAULT_MAIL_FROM = 'no-reply@example.com';

/** What a deployment may change through CDK context (`cdk synth -c stage=prod -c mailFrom=...`). */
export interface ServiceSettings {
  stage: StageName;
  /** Passed to the API functions as `RATE_LIMITS`. */
  rateLimits: string;
  /** Sender of OTP, reset and invitation e-mails; an address verified in SES. */
  mailFrom: string;
  /** Passed to the auth function as `OAUTH_PROVIDERS`: the providers OAuth sign-in trusts, as JSON. */
  oauthProviders: string;
}

/** What follows from the stage: prod keeps data and logs, dev can be torn down without leftovers. */
export interface StageProfile {
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** Stage-wide API Gateway throttle: steady requests per second and bucket size. */
  throttle: { rateLimit: number; burstLimit: number };
}

export const STAGE_PROFILES: Record<StageName, StageProfile> = {
  dev: {
    removalPolicy: RemovalPolicy.DESTROY,
    logRetention: RetentionDays.TWO_WEEKS,
    throttle: { rateLimit: 50, burstLimit: 100 },
  },
  prod: {
    removalPolicy: RemovalPolicy.RETAIN,
    logRetention: RetentionDays.THREE_MONTHS,
    throttle: { rateLimit: 500, burstLimit: 1000 },
  },
};

const EMAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

type ContextReader = (key: string) => unknown;

const text = (read: ContextReader, key: string, fallback: string): string => {
  const value = read(key) ?? fallback;
  if (typeof value !== 'string') throw new Error(`context ${key} must be a string`);
  return value.trim();
};

/** JSON in a `-c` string or an object in cdk.json; none configured by default, so OAuth sign-in is off. */
const oauthProviders = (read: ContextReader): string => {
  const value = read('oauthProviders') ?? {};
  try {
    return JSON.stringify(parseOAuthProviders(typeof value === 'string' ? value : JSON.stringify(value)));
  } catch (error) {
    throw new Error(`context oauthProviders: ${(error as Error).message}`);
  }
};

/** Reads and checks the context once, so a typo fails the synth instead of a deployed function. */
export const readSettings = (read: ContextReader): ServiceSettings => {
  const stage = text(read, 'stage', 'dev');
  if (!(STAGES as readonly string[]).includes(stage)) {
    throw new Error(`context stage must be one of ${STAGES.join(', ')}, got "${stage}"`);
  }
  const rateLimits = text(read, 'rateLimits', DEFAULT_RATE_LIMITS);
  try {
    parseRateLimits(rateLimits);
  } catch (error) {
    throw new Error(`context rateLimits: ${(error as Error).message}`);
  }
  const mailFrom = text(read, 'mailFrom', DEFAULT_MAIL_FROM);
  if (!EMAIL_ADDRESS.test(mailFrom)) throw new Error(`context mailFrom must be an e-mail address, got "${mailFrom}"`);
  return { stage: stage as StageName, rateLimits, mailFrom, oauthProviders: oauthProviders(read) };
};
