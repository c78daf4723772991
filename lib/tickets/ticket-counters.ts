import type { ListCounter } from '#lib/store/list-counters.ts';
import type { TicketType } from './history.ts';

/**
 * The counter each ticket type keeps of its own items (docs/data-model.md 5.16), named here so the unified
 * list can add them up without depending on the modules that write them.
 */
export const TICKET_COUNTERS: Record<TicketType, ListCounter> = {
  INCIDENT: { name: 'INCIDENTS', type: 'INCIDENT_COUNTER' },
  PROBLEM: { name: 'PROBLEMS', type: 'PROBLEM_COUNTER' },
  CHANGE: { name: 'CHANGES', type: 'CHANGE_COUNTER' },
};
