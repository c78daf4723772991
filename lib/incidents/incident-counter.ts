import { filterKey } from '#lib/store/filter-key.ts';
import type { CountedList } from '#lib/store/list-counters.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { Incident } from './incident.ts';

const minutesBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 60_000;

/**
 * INCIDENT_COUNTER (docs/data-model.md 5.16): the workspace's incident totals, kept by `ADD` after each
 * incident write so `/incident-ticket/analytics` is one GetItem however many incidents there are.
 * Attributes: `total`, one per combination of status, priority and environment (`status#<S>`,
 * `priority#<P>|status#<S>`, ...: every list total without a date range), `ackCount`, `ackMinutesSum`,
 * `resolveCount`, `resolveMinutesSum`. Both states of a write come from the write itself (`ALL_OLD`), so
 * concurrent writes to one incident still add up exactly.
 */
export const INCIDENT_COUNTER: CountedList<Incident> = {
  ...TICKET_COUNTERS.INCIDENT,
  attributes: ['status', 'priority', 'environment', 'createdAt', 'acknowledgedAt', 'resolvedAt'],
  filters: ({ status, priority, environment }) => ({
    status,
    priority,
    environment: environment === undefined ? undefined : filterKey(environment),
  }),
  measures: ({ createdAt = '', acknowledgedAt, resolvedAt }) => ({
    ...(acknowledgedAt && { ackCount: 1, ackMinutesSum: minutesBetween(createdAt, acknowledgedAt) }),
    ...(resolvedAt && { resolveCount: 1, resolveMinutesSum: minutesBetween(createdAt, resolvedAt) }),
  }),
};
