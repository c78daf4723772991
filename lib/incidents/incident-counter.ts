import { type FilterValues, filterCounterName } from '#lib/store/counters.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import type { CountedList } from '#lib/store/list-counters.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { Incident, IncidentStatus } from './incident.ts';

const minutesBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 60_000;

/**
 * The filter values of a list filtered by service area, alone or with a status, whose counter attributes
 * (`service#<key>`, `service#<key>|status#<S>`) every incident with a service area adds to. A service area is not counted in every combination as the other filters
 * are: a workspace has many more of them, and the counter is one item of at most 400 KB. A service area
 * with a priority or an environment is counted from its index (`serviceCounterHolds`).
 */
export const serviceFilterValues = (serviceArea: string, status?: IncidentStatus): FilterValues => ({
  service: filterKey(serviceArea),
  status,
});

export const serviceCounterHolds = ({ priority, environment }: { priority?: string; environment?: string }) =>
  priority === undefined && environment === undefined;

const serviceCounts = ({ serviceArea, status }: Partial<Incident>): Record<string, number> =>
  serviceArea === undefined
    ? {}
    : {
        [filterCounterName(serviceFilterValues(serviceArea))]: 1,
        ...(status && { [filterCounterName(serviceFilterValues(serviceArea, status))]: 1 }),
      };

/**
 * INCIDENT_COUNTER (docs/data-model.md 5.16): the workspace's incident totals, kept by `ADD` after each
 * incident write so `/incident-ticket/analytics` is one GetItem however many incidents there are.
 * Attributes: `total`, one per combination of status, priority and environment (`status#<S>`,
 * `priority#<P>|status#<S>`, ...: every list total without a date range), the service-area counts above,
 * `ackCount`, `ackMinutesSum`, `resolveCount`, `resolveMinutesSum`. Both states of a write come from the
 * write itself (`ALL_OLD`), so concurrent writes to one incident still add up exactly.
 */
export const INCIDENT_COUNTER: CountedList<Incident> = {
  ...TICKET_COUNTERS.INCIDENT,
  attributes: ['status', 'priority', 'environment', 'serviceArea', 'createdAt', 'acknowledgedAt', 'resolvedAt'],
  filters: ({ status, priority, environment }) => ({
    status,
    priority,
    environment: environment === undefined ? undefined : filterKey(environment),
  }),
  measures: (incident) => {
    const { createdAt = '', acknowledgedAt, resolvedAt } = incident;
    return {
      ...serviceCounts(incident),
      ...(acknowledgedAt && { ackCount: 1, ackMinutesSum: minutesBetween(createdAt, acknowledgedAt) }),
      ...(resolvedAt && { resolveCount: 1, resolveMinutesSum: minutesBetween(createdAt, resolvedAt) }),
    };
  },
};
