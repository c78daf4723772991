import type { CountedList } from '#lib/store/list-counters.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { Problem } from './problem.ts';

/**
 * PROBLEM_COUNTER (docs/data-model.md 5.16): `total` and one attribute per combination of status and
 * priority, so every problem list's total is one GetItem. Kept by the repository after each problem write.
 */
export const PROBLEM_COUNTER: CountedList<Pick<Problem, 'status' | 'priority'>> = {
  ...TICKET_COUNTERS.PROBLEM,
  attributes: ['status', 'priority'],
  filters: ({ status, priority }) => ({ status, priority }),
};
