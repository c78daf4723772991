import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from '#lib/ports/rate-limits.ts';
import { DEFAULT_ALLOWED_ORIGINS, parseAllowedOrigins } from '#lib/ports/cors-need.ts';
import { parseOAuthProviders } from '#lib/ports/identity-provider/oauth-providers.ts';
import { parsePrivateNetworks } from '#lib/ports/network/private-networks.ts';
import { SLA_SWEEP_MINUTES } from '#lib/workers/sla-sweep.ts';
import { DEFAULT_SMS_SPEND_LIMIT_USD } from '#lib/ports/metrics/pager-health.ts';

const STAGES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGES)[number];

/** What a deployment may change through CDK context (`cdk synth -c stage=prod -c mailFrom=...`). */
export interface ServiceSettings {
  stage: StageName;
  /** Passed to the API functions as `RATE_LIMITS`. */
  rateLimits: string;
  /** Sender of OTP, reset and invitation e-mails. Required: a deploy without it could never send mail. */
  mailFrom: string;
  /** The SES identity the stack creates for `mailFrom`: the address itself, or its domain (with DKIM). */
  mailIdentity: string;
  /** `mailIdentity` is already in SES (another stage's, or verified by hand), so the stack creates none. */
  mailIdentityExists: boolean;
  /** Where the API's users work (invitation links); the API's own URL when not given. */
  appUrl: string | undefined;
  /** Receives the alarms (an SNS e-mail subscription); none when not given. */
  alarmEmail: string | undefined;
  /** Browser origins allowed to call the API (CORS): any (`*`) unless narrowed, none with `none`. */
  allowedOrigins: readonly string[];
  /**
   * API Gateway's access and execution logs need the account-wide logging role, which belongs to the
   * account, not to this stack: `off` (the default) leaves it alone and logs nothing at the gateway,
   * `existingRole` logs through the role the account already has, `createRole` sets it
   * (`AWS::ApiGateway::Account`, replacing any role another stack set).
   */
  apiLogging: ApiLogging;
  /** Passed to the auth function as `OAUTH_PROVIDERS`: the providers OAuth sign-in trusts, as JSON. */
  oauthProviders: string;
  /**
   * The Amazon Bedrock model the analysis engine reasons with (`-c bedrockModelId=...`); none by default,
   * and then the default engine alone reasons and no function may call Bedrock.
   */
  bedrockModelId: string | undefined;
  /**
   * Passed as `OUTBOUND_PRIVATE_NETWORKS` to the functions that call workspace URLs: private networks (CIDRs,
   * comma-separated) such URLs may reach, for an enterprise code host inside the company's network; none by
   * default. A deployment decides it, never a workspace.
   */
  outboundPrivateNetworks: string;
  /** Minutes between two runs of the SLA sweep (`-c slaSweepMinutes=5`): how late a breach or an escalation may be. */
  slaSweepMinutes: number;
  /**
   * Whether the correlation and notification workers reserve their maximum concurrency from the account
   * (`-c reserveWorkerConcurrency=true`): a storm's paging path then keeps its capacity however busy the API
   * is. Off by default, whatever the stage: Lambda refuses a reservation that leaves fewer than 100 unreserved
   * executions, and a new account's quota may be 10, so reserving would roll a first deploy back. Turn it on
   * once the account's concurrent-executions quota is at least 100 + the reserved sum (README, prerequisites).
   */
  reserveWorkerConcurrency: boolean;
  /**
   * X-Ray tracing of the API stage and of every function together (`-c tracing=false` turns both off), so a
   * trace follows a request from the gateway into its function and the AWS calls it makes. On by default: X-Ray
   * samples (1 request a second and 5% beyond), and 100,000 traces a month are free.
   */
  tracing: boolean;
  /**
   * The stage's CloudWatch dashboard (`-c dashboard=true`): off by default, since with its ~120 metrics it is
   * billed $3 a month, the largest fixed cost of an idle stage; the alarms watch the service either way.
   */
  dashboard: boolean;
  /**
   * The account's monthly SMS spend limit in USD, as set in SNS's text messaging preferences
   * (`-c smsSpendLimitUsd=50`); AWS's default of $1 when not given. The spend alarm fires at 80% of it.
   */
  smsSpendLimitUsd: number;
}

/** What follows from the stage: prod keeps data and logs, dev can be torn down without leftovers. */
export interface StageProfile {
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** Stage-wide API Gateway throttle: steady requests per second and bucket size. */
  throttle: { rateLimit: number; burstLimit: number };
  /**
   * Whether the stack turns on SNS delivery status logging of SMS, an account-wide setting: in prod, so a
   * dev stage in the same account neither overrides it nor leaves it pointing at a role it deleted.
   */
  logsSmsDelivery: boolean;
}

export const STAGE_PROFILES: Record<StageName, StageProfile> = {
  dev: {
    removalPolicy: RemovalPolicy.DESTROY,
    logRetention: RetentionDays.TWO_WEEKS,
    throttle: { rateLimit: 50, burstLimit: 100 },
    logsSmsDelivery: false,
  },
  prod: {
    removalPolicy: RemovalPolicy.RETAIN,
    logRetention: RetentionDays.THREE_MONTHS,
    throttle: { rateLimit: 500, burstLimit: 1000 },
    logsSmsDelivery: true,
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

const MAIL_FROM_REQUIRED =
  'context mailFrom is required: the address one-time codes, password resets and invitations are sent from. ' +
  'Deploy with `npx cdk deploy -c mailFrom=incidents@your-domain.com`; the stack creates its SES identity ' +
  '(add `-c mailIdentity=your-domain.com` to verify the whole domain with DKIM). See docs/deploying.md.';

/** The address itself, or a domain the address belongs to (`ops@mail.acme.com` -> `mail.acme.com` or `acme.com`). */
const mailIdentityOf = (read: ContextReader, mailFrom: string): string => {
  const identity = text(read, 'mailIdentity', mailFrom).toLowerCase();
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1).toLowerCase();
  if (identity === mailFrom.toLowerCase() || identity === domain || domain.endsWith(`.${identity}`)) return identity;
  throw new Error(`context mailIdentity must be mailFrom or a domain it belongs to, got "${identity}"`);
};

/** `true` or `false`, as a `-c` string or a cdk.json boolean. */
const flag = (read: ContextReader, key: string, fallback = false): boolean => {
  const value = read(key) ?? fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`context ${key} must be true or false, got "${String(value)}"`);
};

const appUrlOf = (read: ContextReader): string | undefined => {
  const value = text(read, 'appUrl', '');
  if (!value) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(`context appUrl must be an http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
};

/** `*` (the default), `none`, or a comma-separated list of origins (`https://app.acme.com`), each without a path. */
const allowedOriginsOf = (read: ContextReader): readonly string[] => {
  const origins = parseAllowedOrigins(text(read, 'allowedOrigins', DEFAULT_ALLOWED_ORIGINS));
  if (origins.includes('*') && origins.length > 1) throw new Error('context allowedOrigins: `*` stands alone');
  for (const origin of origins.filter((one) => one !== '*')) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new Error(`context allowedOrigins: "${origin}" is not an origin such as https://app.example.com`);
    }
  }
  return origins;
};

const API_LOGGING = ['off', 'existingRole', 'createRole'] as const;
export type ApiLogging = (typeof API_LOGGING)[number];

const apiLoggingOf = (read: ContextReader): ApiLogging => {
  const value = text(read, 'apiLogging', 'off');
  if (!(API_LOGGING as readonly string[]).includes(value)) {
    throw new Error(`context apiLogging must be one of ${API_LOGGING.join(', ')}, got "${value}"`);
  }
  return value as ApiLogging;
};

/** A model or inference-profile id such as `anthropic.claude-3-5-haiku-20241022-v1:0` or `us.anthropic...`. */
const bedrockModelIdOf = (read: ContextReader): string | undefined => {
  const value = text(read, 'bedrockModelId', '');
  if (!value) return undefined;
  if (!/^[a-z0-9][a-z0-9.:_-]{2,200}$/i.test(value))
    throw new Error(`context bedrockModelId is not a model id, got "${value}"`);
  return value;
};

const outboundPrivateNetworksOf = (read: ContextReader): string => {
  const value = text(read, 'outboundPrivateNetworks', '');
  try {
    return parsePrivateNetworks(value).join(',');
  } catch (error) {
    throw new Error(`context outboundPrivateNetworks: ${(error as Error).message}`);
  }
};

/** Whole minutes, 1 to 60: EventBridge's rate schedules count in minutes, and more than an hour late pages nobody. */
const slaSweepMinutesOf = (read: ContextReader): number => {
  const value = Number(read('slaSweepMinutes') ?? SLA_SWEEP_MINUTES);
  if (!Number.isInteger(value) || value < 1 || value > 60) {
    throw new Error(
      `context slaSweepMinutes must be a whole number of minutes from 1 to 60, got "${String(read('slaSweepMinutes'))}"`,
    );
  }
  return value;
};

/** A positive amount of dollars, as SNS's spend limit is. */
const smsSpendLimitOf = (read: ContextReader): number => {
  const value = Number(read('smsSpendLimitUsd') ?? DEFAULT_SMS_SPEND_LIMIT_USD);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(
      `context smsSpendLimitUsd must be a positive number of dollars, got "${String(read('smsSpendLimitUsd'))}"`,
    );
  }
  return value;
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
  const mailFrom = text(read, 'mailFrom', '');
  if (!mailFrom) throw new Error(MAIL_FROM_REQUIRED);
  if (!EMAIL_ADDRESS.test(mailFrom)) throw new Error(`context mailFrom must be an e-mail address, got "${mailFrom}"`);
  const alarmEmail = text(read, 'alarmEmail', '') || undefined;
  if (alarmEmail && !EMAIL_ADDRESS.test(alarmEmail)) {
    throw new Error(`context alarmEmail must be an e-mail address, got "${alarmEmail}"`);
  }
  return {
    stage: stage as StageName,
    rateLimits,
    mailFrom,
    mailIdentity: mailIdentityOf(read, mailFrom),
    mailIdentityExists: flag(read, 'mailIdentityExists'),
    appUrl: appUrlOf(read),
    alarmEmail,
    allowedOrigins: allowedOriginsOf(read),
    apiLogging: apiLoggingOf(read),
    oauthProviders: oauthProviders(read),
    bedrockModelId: bedrockModelIdOf(read),
    outboundPrivateNetworks: outboundPrivateNetworksOf(read),
    slaSweepMinutes: slaSweepMinutesOf(read),
    reserveWorkerConcurrency: flag(read, 'reserveWorkerConcurrency'),
    tracing: flag(read, 'tracing', true),
    dashboard: flag(read, 'dashboard'),
    smsSpendLimitUsd: smsSpendLimitOf(read),
  };
};
