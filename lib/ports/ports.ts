import type { Table } from '#lib/store/table.ts';
import type { Clock } from './clock.ts';
import type { CredentialKeys } from './credential-keys/credential-keys.ts';
import type { IntegrationSettings } from './integration-providers/integration-providers.ts';
import type { SmsSender } from './sms/sms.ts';
import type { Ids } from './ids.ts';
import type { IdentityProviderClient } from './identity-provider/identity-provider.ts';
import type { OAuthProviders } from './identity-provider/oauth-providers.ts';
import type { MailDelivery, Mailer } from './mail/mail.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Network } from './network/network.ts';
import type { ObjectStore } from './object-store/object-store.ts';
import type { Queue } from './queue/queue.ts';
import type { RateLimits } from './rate-limits.ts';
import type { Reasoning } from './reasoner/reasoner.ts';
import type { SigningKeys } from './signing-keys/signing-keys.ts';
import type { PushKeys } from './push-keys/push-keys.ts';
import type { UsagePlan } from './usage-plan/usage-plan.ts';
import type { Workflow } from './workflow/workflow.ts';

/**
 * The outside world's clients: each talks to a service (AWS's, a provider's, or a local one) and has a
 * local adapter beside its AWS one.
 */
interface Adapters {
  table: Table;
  queue: Queue;
  workflow: Workflow;
  /** The outbox: what API functions send is delivered by the mail worker. */
  mail: Mailer;
  mailDelivery: MailDelivery;
  /** Signal metadata and queued events too large for an item or a message. */
  objects: ObjectStore;
  signingKeys: SigningKeys;
  /** The VAPID keys that sign Web Push messages. */
  pushKeys: PushKeys;
  usagePlan: UsagePlan;
  identityProvider: IdentityProviderClient;
  /** The master key of stored third-party tokens. */
  credentialKeys: CredentialKeys;
  sms: SmsSender;
  /** DNS for the URLs and domains workspaces set, and the deployment's private networks. */
  network: Network;
  metrics: Metrics;
  /** The analysis engine's reasoning over evidence: a model over the rules, or the rules alone. */
  reasoner: Reasoning;
  clock: Clock;
  ids: Ids;
}

/** The deployment's settings: plain values the stack (or the local server) chose, the same in every request. */
interface Settings {
  /**
   * The usage-plan key of every request the gateway's authorizer vouches for no API key (Bearer callers,
   * bad keys): one shared key of a plan without a per-key throttle, so the stage throttle alone applies.
   */
  unkeyedUsageKey: string;
  rateLimits: RateLimits;
  /** The sign-in providers the deployment offers, with their client ids. */
  oauthProviders: OAuthProviders;
  /** The OAuth applications of the integrations and the API's own URL. */
  integrations: IntegrationSettings;
  /** Browser origins allowed to call the API (CORS). */
  allowedOrigins: readonly string[];
}

/**
 * Everything outside the domain that services reach. A function gets the ones its declaration needs
 * (need.ts), each built on first use; clock and ids need nothing and are always there. Adapters and
 * settings share one object because a need binds both the same way: an environment (and a grant) the
 * stack gives the function, read when the function first uses it.
 */
export type Ports = Adapters & Settings;

export type PortName = keyof Ports;
