import type { TicketStatus } from '#lib/tickets/history.ts';
import type { ChangeInput, ChangeStatus } from './change-input.ts';

/** A deployment's states as a CHANGE ticket shows them; they join the unified ticket statuses. */
export const CHANGE_STATUSES = [
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'INACTIVE',
] as const satisfies readonly ChangeStatus[] & readonly TicketStatus[];

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
