import type { Table } from '#lib/store/table.ts';
import type { Queue } from '#lib/ports/queue/queue.ts';
import type { Workflow } from '#lib/ports/workflow/workflow.ts';
import type { Mailer } from '#lib/ports/mail/mail.ts';
import type { ObjectStore } from '#lib/ports/object-store/object-store.ts';
import type { Clock } from '#lib/ports/clock.ts';
import type { Ids } from '#lib/ports/ids.ts';
import type { SigningKeys } from '#lib/ports/signing-keys/signing-keys.ts';
import type { UsagePlan } from '#lib/ports/usage-plan/usage-plan.ts';
import type { RateLimits } from '#lib/rate-limit/rate-limit-settings.ts';
import type { IdentityProviderClient } from '#lib/ports/identity-provider/identity-provider.ts';
import type { OAuthProviders } from '#lib/accounts/oauth-providers.ts';
import { createAwsRuntime } from './aws-runtime.ts';

/** Everything outside the domain that handlers and services reach: the table and the ports. */
export interface Runtime {
  mode: 'aws' | 'local';
  table: Table;
  queue: Queue;
  workflow: Workflow;
  mail: Mailer;
  /** Signal metadata and queued events too large for an item or a message. */
  objects: ObjectStore;
  signingKeys: SigningKeys;
  usagePlan: UsagePlan;
  rateLimits: RateLimits;
  identityProvider: IdentityProviderClient;
  oauthProviders: OAuthProviders;
  clock: Clock;
  ids: Ids;
}

let installed: Runtime | undefined;

/** The local server installs its runtime before the first request; in Lambda the AWS one is built on first use. */
export const installRuntime = (runtime: Runtime | undefined): void => {
  installed = runtime;
};

export const currentRuntime = (): Runtime => {
  installed ??= createAwsRuntime(process.env);
  return installed;
};
