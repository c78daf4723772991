import type { TicketStatus } from '#lib/tickets/history.ts';
import type { ChangeStatus } from './change-input.ts';

/** A deployment's states as a CHANGE ticket shows them; they join the unified ticket statuses. */
export const CHANGE_STATUSES = [
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'INACTIVE',
] as const satisfies readonly ChangeStatus[] & readonly TicketStatus[];
