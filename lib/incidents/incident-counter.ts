import { addToCounters, countersOf } from '#lib/store/counters.ts';
import { getItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import type { Incident } from './incident.ts';

/**
 * INCIDENT_COUNTER (docs/data-model.md 5.16): the workspace's incident totals, kept by `ADD` after each
 * incident write so `/incident-ticket/analytics` is one GetItem however many incidents there are.
 * Attributes: `total`, `status#<S>`, `priority#<P>`, `ackCount`, `ackMinutesSum`, `resolveCount`,
 * `resolveMinutesSum`.
 */
const counterKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId, 'COUNTER'), sk: 'INCIDENTS' });

export type CounterValues = Record<string, number>;

const minutesBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 60_000;

/** What one incident in a given state adds to the counter. */
const contribution = (incident: Incident | undefined): CounterValues => {
  if (!incident) return {};
  return {
    total: 1,
    [`status#${incident.status}`]: 1,
    [`priority#${incident.priority}`]: 1,
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
export const counterDelta = (before: Incident | undefined, after: Incident | undefined): CounterValues => {
  const old = contribution(before);
  const current = contribution(after);
  const delta: CounterValues = {};
  for (const name of new Set([...Object.keys(old), ...Object.keys(current)])) {
    const change = (current[name] ?? 0) - (old[name] ?? 0);
    if (change !== 0) delta[name] = change;
  }
  return delta;
};

/**
 * Applies a delta with one unconditional `ADD`, issued after the incident's own write succeeded. A crash
 * in between can leave the counter off by one incident, which a recount repairs (data-model 6).
 */
export const addToIncidentCounter = async (table: Table, workspaceId: string, delta: CounterValues): Promise<void> => {
  if (Object.keys(delta).length === 0) return;
  await addToCounters(table, counterKey(workspaceId), delta, { type: 'INCIDENT_COUNTER', workspaceId });
};

/** The counter's values; an absent counter (no incident yet) reads as all zeros. */
export const readIncidentCounter = async (table: Table, workspaceId: string): Promise<CounterValues> =>
  countersOf(await getItem(table, counterKey(workspaceId), false));
