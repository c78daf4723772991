import type { ChangeInput } from './change-input.ts';

/** A change ticket as stored: the deployment's last known state, in the fields its events carry. */
export interface Change
  extends Pick<
    ChangeInput,
    'provider' | 'summary' | 'status' | 'environment' | 'repository' | 'commitSha' | 'deployer'
  > {
  id: string;
  /** When the provider says the deployment happened (docs/analysis.md, "Time"); else when the service first heard of it. */
  createdAt: string;
  /** When the service first heard of it: a late webhook's delivery, beside the time it happened. */
  receivedAt: string;
  /** The provider's time of the state stored. */
  providerUpdatedAt: string;
}
