import { INCIDENT_PRIORITIES, INCIDENT_STATUSES, type IncidentPriority, type IncidentStatus } from './incident.ts';
import { readListCounter } from '#lib/store/list-counters.ts';
import { INCIDENT_COUNTER } from './incident-counter.ts';

type CounterValues = Record<string, number>;
import type { Scope } from '#lib/identity/scope.ts';

export interface IncidentAnalytics {
  total: number;
  byStatus: Record<IncidentStatus, number>;
  byPriority: Record<IncidentPriority, number>;
  /** Minutes from creation to the first move out of OPEN, averaged; null without a sample. */
  meanTimeToAcknowledge: number | null;
  /** Minutes from creation to resolution, over the incidents currently RESOLVED or CLOSED; null without a sample. */
  meanTimeToResolve: number | null;
}

/** A count never reads below zero, even while a drifted counter waits for its recount. */
const count = (values: CounterValues, name: string): number => Math.max(0, values[name] ?? 0);

const meanMinutes = (values: CounterValues, sum: string, samples: string): number | null => {
  const n = count(values, samples);
  return n === 0 ? null : Math.round(((values[sum] ?? 0) / n) * 100) / 100;
};

/**
 * Totals by status and priority and the mean times, from the workspace's incident counter: one GetItem,
 * whatever the number of incidents. Means are in minutes, rounded to two decimals.
 */
export const incidentAnalytics = async ({ ports, workspaceId }: Scope): Promise<IncidentAnalytics> => {
  const values = await readListCounter(ports.table, workspaceId, INCIDENT_COUNTER);
  return {
    total: count(values, 'total'),
    byStatus: Object.fromEntries(
      INCIDENT_STATUSES.map((status) => [status, count(values, `status#${status}`)]),
    ) as Record<IncidentStatus, number>,
    byPriority: Object.fromEntries(
      INCIDENT_PRIORITIES.map((priority) => [priority, count(values, `priority#${priority}`)]),
    ) as Record<IncidentPriority, number>,
    meanTimeToAcknowledge: meanMinutes(values, 'ackMinutesSum', 'ackCount'),
    meanTimeToResolve: meanMinutes(values, 'resolveMinutesSum', 'resolveCount'),
  };
};
