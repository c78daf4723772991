import {
  addToCounters,
  counterDelta as contributionDelta,
  countersOf,
  type FilterValues,
  filterCounterName,
  filterCounts,
  sumCounts,
} from '#lib/store/counters.ts';
import { putItem } from '#lib/store/conditional-writes.ts';
import { queryAll } from '#lib/store/queries.ts';
import { filterKey } from '#lib/store/keys.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { Incident, IncidentPriority, IncidentStatus } from './incident.ts';
import { incidentFromItem, incidentPartition } from './incident-item.ts';

/**
 * INCIDENT_COUNTER (docs/data-model.md 5.16): the workspace's incident totals, kept by `ADD` after each
 * incident write so `/incident-ticket/analytics` is one GetItem however many incidents there are.
 * Attributes: `total`, one per combination of status, priority and environment (`status#<S>`,
 * `priority#<P>|status#<S>`, ...: every list total without a date range), `ackCount`, `ackMinutesSum`,
 * `resolveCount`, `resolveMinutesSum`.
 */
const counterKey = (workspaceId: string) => ({
  pk: workspaceKey(workspaceId, 'COUNTER'),
  sk: TICKET_COUNTERS.INCIDENT.name,
});

export type CounterValues = Record<string, number>;

const minutesBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 60_000;

/** The list filters of an incident, as its counter names them; `environmentKey` is the normalised one. */
export interface IncidentListFilter {
  status?: IncidentStatus;
  priority?: IncidentPriority;
  environmentKey?: string;
}

const filterValues = ({ status, priority, environmentKey }: IncidentListFilter): FilterValues => ({
  status,
  priority,
  environment: environmentKey,
});

/** What one incident in a given state adds to the counter. */
const contribution = (incident: Incident | undefined): CounterValues => {
  if (!incident) return {};
  const { status, priority, environment } = incident;
  return {
    ...filterCounts(
      filterValues({
        status,
        priority,
        environmentKey: environment === undefined ? undefined : filterKey(environment),
      }),
    ),
    ...(incident.acknowledgedAt && {
      ackCount: 1,
      ackMinutesSum: minutesBetween(incident.createdAt, incident.acknowledgedAt),
    }),
    ...(incident.resolvedAt && {
      resolveCount: 1,
      resolveMinutesSum: minutesBetween(incident.createdAt, incident.resolvedAt),
    }),
  };
};

/**
 * The change to the counter when an incident goes from `before` to `after` (undefined: did not exist /
 * no longer exists). Both states come from the write itself (`ALL_OLD`), so concurrent writes to one
 * incident still add up exactly.
 */
export const counterDelta = (before: Incident | undefined, after: Incident | undefined): CounterValues =>
  contributionDelta(contribution(before), contribution(after));

/**
 * Applies a delta with one unconditional `ADD`, issued after the incident's own write succeeded. A crash
 * in between can leave the counter off by one incident, which a recount repairs (data-model 6).
 */
export const addToIncidentCounter = async (table: Table, workspaceId: string, delta: CounterValues): Promise<void> => {
  if (Object.keys(delta).length === 0) return;
  await addToCounters(table, counterKey(workspaceId), delta, { type: 'INCIDENT_COUNTER', workspaceId });
};

/**
 * Recomputes the counter from the incidents themselves (the recount job, docs/data-model.md 6) and writes
 * it whole; an ADD racing this write can be lost or doubled, which the next recount repairs.
 */
export const recountIncidents = async (table: Table, workspaceId: string): Promise<number> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': incidentPartition(workspaceId) },
  });
  const counts = sumCounts(items.map((item) => contribution(incidentFromItem(workspaceId, item))));
  await putItem(table, { ...counterKey(workspaceId), type: 'INCIDENT_COUNTER', workspaceId, ...counts });
  return items.length;
};

/** The counter's values; an absent counter (no incident yet) reads as all zeros. */
export const readIncidentCounter = async (table: Table, workspaceId: string): Promise<CounterValues> =>
  countersOf(await getItem(table, counterKey(workspaceId), false));

/** The total of one filtered list (no date range): one attribute of the counter. */
export const readIncidentTotal = async (
  table: Table,
  workspaceId: string,
  filter: IncidentListFilter,
): Promise<number> =>
  Math.max(0, (await readIncidentCounter(table, workspaceId))[filterCounterName(filterValues(filter))] ?? 0);
