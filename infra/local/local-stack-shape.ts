import type { Clock } from '#lib/ports/clock.ts';
import type { Network } from '#lib/ports/network/network.ts';
import type { Ports } from '#lib/ports/ports.ts';
import type { QueueName } from '#lib/ports/queue/queue.ts';
import type { QueueSettings } from '#lib/ports/queue/queue-settings.ts';
import type { Reasoner } from '#lib/ports/reasoner/reasoner.ts';
import type { LocalHealth } from './local-health.ts';
import type { MemoryReport } from './local-memory.ts';
import type { LocalMetrics } from './local-metrics.ts';
import type { LocalWorkers } from './local-workers.ts';
import type { Mailbox } from './mailbox.ts';
import type { SmsOutbox } from './sms-outbox.ts';
import type { LocalSqs } from './sqs-server.ts';

/* What `startLocalStack` (local-stack.ts) takes and answers: the local stack as its callers see it. */

export interface LocalStackOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** A directory for the data, or `:memory:` to keep nothing. */
  dataDir: string;
  /** Limiter settings in the RATE_LIMITS syntax; the spec's limits by default. */
  rateLimits?: string;
  /** OAuth providers in the OAUTH_PROVIDERS syntax (JSON); none by default. */
  oauthProviders?: string;
  /** The integrations' OAuth applications in the INTEGRATION_PROVIDERS syntax (JSON); none by default. */
  integrationProviders?: string;
  /** Where links in e-mails point (APP_URL); the local server's own URL by default. */
  appUrl?: string;
  /** Browser origins allowed to call the API (ALLOWED_ORIGINS: `*` by default, `none`, or comma-separated). */
  allowedOrigins?: string;
  /**
   * Whether the ingestion and correlation workers and the sweep run (default true). Tests that drive a
   * queue consumer themselves, to inject faults, turn them off. The mail worker always runs.
   */
  workers?: boolean;
  /** Seconds between two runs of the SLA sweep (`SLA_SWEEP_SECONDS`); the stack's default minute otherwise. */
  slaSweepSeconds?: number;
  /** Queue settings that differ from the stack's, such as a short visibility timeout for quick retries. */
  queueSettings?: Partial<Record<QueueName, QueueSettings>>;
  /** The analysis engine's reasoning: the rules unless a test brings a failing or slow engine. */
  reasoner?: Reasoner;
  /** How long the local workflow waits before retrying a failed stage: as deployed unless a test passes 0. */
  workflowRetryWaitMs?: number;
  /** Private networks workspace URLs may reach (OUTBOUND_PRIVATE_NETWORKS: CIDRs, comma-separated); none by default. */
  outboundPrivateNetworks?: string;
  /** DNS for workspace URLs and domains: the system resolver unless a test answers names itself. */
  network?: Network;
  /**
   * The services' clock: the system's, unless the demo replays a past week (infra/local/demo/demo-clock.ts)
   * or a test needs a limiter window to begin.
   */
  clock?: Clock;
}

export interface LocalStack {
  url: string;
  ports: Ports;
  mailbox: Mailbox;
  /** The text messages sent (`GET /_local/sms`). */
  smsOutbox: SmsOutbox;
  /** What the services counted since the start (`GET /_local/metrics`). */
  metrics: LocalMetrics;
  /** The process's resident memory and each thread's heap (`GET /_local/metrics`, `data.memory`). */
  memory(): Promise<MemoryReport>;
  /** Whether the pager still pages: the figures the AWS health alarms watch (`GET /_local/metrics`, `health`). */
  health: LocalHealth;
  queues: LocalSqs;
  /** The running workers, when `workers` is on. */
  workers: LocalWorkers | undefined;
  /** Resolves once every queued notification and e-mail is delivered. */
  deliveriesIdle(): Promise<void>;
  /**
   * The failed invocations of the mail and notification workers (a batch that threw or timed out), as
   * CloudWatch counts a function's errors: a test that breaks a receiver can tell a retry from a timeout.
   */
  deliveryErrors: readonly DeliveryError[];
  stop(): Promise<StopReport>;
}

export interface DeliveryError {
  queue: 'mail' | 'notifications';
  error: unknown;
}

export interface StopReport {
  /** Queued messages saved for the next start; undefined when nothing is kept (`:memory:`). */
  savedMessages: number | undefined;
}
