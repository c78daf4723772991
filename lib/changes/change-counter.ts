import type { CountedList } from '#lib/store/list-counters.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { ChangeStatus } from './change-input.ts';

/**
 * CHANGE_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>` of the workspace's changes, for the
 * unified ticket list's totals. Kept by the repository after each change write.
 */
export const CHANGE_COUNTER: CountedList<{ status: ChangeStatus }> = {
  ...TICKET_COUNTERS.CHANGE,
  attributes: ['status'],
  filters: ({ status }) => ({ status }),
};
