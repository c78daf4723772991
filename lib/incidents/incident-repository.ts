import type { Page, PageRequest } from '#lib/store/pages.ts';
import { countAll, queryAll } from '#lib/store/queries.ts';
import { type IncidentFilters, listQuery } from './incident-list-query.ts';
import { queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import { deleteIfPresent, putNew, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { batchDeleteItems } from '#lib/store/batch.ts';
import { findItem, keyOf } from '#lib/store/items.ts';
import { INCIDENT_STATUSES, isDone, isIncidentId, type Incident, type IncidentStatus } from './incident.ts';
import {
  incidentChildPartition,
  incidentFromItem,
  incidentItemKey,
  incidentStatusPartition,
  incidentToItem,
  type ItemUpdate,
} from './incident-item.ts';
import { readCountedTotal, readListTotal } from '#lib/store/list-counters.ts';
import { INCIDENT_COUNTER, serviceCounterHolds, serviceFilterValues } from './incident-counter.ts';

type Item = Record<string, unknown>;

const updateExpression = ({ set, setIfAbsent, remove }: ItemUpdate) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const alias = (name: string, value?: unknown) => {
    const index = Object.keys(names).length;
    names[`#u${index}`] = name;
    if (value !== undefined) values[`:u${index}`] = value;
    return index;
  };
  const assignments = [
    ...Object.entries(set).map(([name, value]) => {
      const index = alias(name, value);
      return `#u${index} = :u${index}`;
    }),
    ...Object.entries(setIfAbsent).map(([name, value]) => {
      const index = alias(name, value);
      return `#u${index} = if_not_exists(#u${index}, :u${index})`;
    }),
  ];
  const removals = remove.map((name) => `#u${alias(name)}`);
  return {
    expression: `SET ${assignments.join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
    names,
    values,
  };
};

/** The item after `update`, computed from the item it replaced exactly as DynamoDB applied it. */
const applyUpdate = (item: Item, { set, setIfAbsent, remove }: ItemUpdate): Item => {
  const next: Item = { ...item, ...set };
  for (const [name, value] of Object.entries(setIfAbsent)) next[name] ??= value;
  for (const name of remove) delete next[name];
  return next;
};

/**
 * What must hold of the stored incident for an update to apply, as data: a field equal to a value, absent,
 * not one of some values, or absent or later than an instant (ISO strings compare in time order).
 */
export type IncidentCondition =
  | { field: keyof Incident; equals: string }
  | { field: keyof Incident; absent: true }
  | { field: keyof Incident; notIn: readonly string[] }
  | { field: keyof Incident; absentOrAfter: string };

const conditionExpression = (condition: IncidentCondition) => {
  const names = { '#cond': condition.field };
  if ('equals' in condition) return { expression: '#cond = :cond', names, values: { ':cond': condition.equals } };
  if ('absent' in condition) return { expression: 'attribute_not_exists(#cond)', names, values: {} };
  if ('notIn' in condition) {
    const values = Object.fromEntries(condition.notIn.map((value, index) => [`:cond${index}`, value]));
    return { expression: `NOT (#cond IN (${Object.keys(values).join(', ')}))`, names, values };
  }
  return {
    expression: 'attribute_not_exists(#cond) OR #cond > :cond',
    names,
    values: { ':cond': condition.absentOrAfter },
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const incidentRepository = (table: Table, workspaceId: string) => {
  /** Stores a new incident; its id is freshly allocated, so the condition only guards against a bug. */
  const putIncident = async (incident: Incident): Promise<void> => {
    await putNew(table, incidentToItem(workspaceId, incident));
  };

  /** By record id or ticket id (the same string). A value that is not an incident id is not looked up. */
  const getIncident = async (incidentId: string): Promise<Incident | undefined> => {
    if (!isIncidentId(incidentId)) return undefined;
    return findItem(table, incidentItemKey(workspaceId, incidentId), (item) => incidentFromItem(workspaceId, item));
  };

  /**
   * A page, newest first. The total is the counter's (data-model 5.16) but where no counter attribute holds
   * it: a date range, or a service area with a priority or an environment. Then it is a COUNT of the
   * query, bounded by the days or the one service area asked for rather than by the table.
   */
  const queryIncidents = async (filters: IncidentFilters, page: PageRequest): Promise<Page<Incident>> => {
    const { status, open, priority, environment, serviceArea, from, to } = filters;
    const query = listQuery(workspaceId, filters);
    const total = async (): Promise<number> => {
      if (open !== undefined && (status || serviceArea)) return countAll(table, query);
      if (from || to || (serviceArea && !serviceCounterHolds(filters))) return countAll(table, query);
      if (open !== undefined) {
        // Open or done: the sum of the counted totals of its statuses.
        const statuses = INCIDENT_STATUSES.filter((one) => isDone(one) !== open);
        const totals = await Promise.all(
          statuses.map((one) =>
            readCountedTotal(table, workspaceId, INCIDENT_COUNTER, { status: one, priority, environment }),
          ),
        );
        return totals.reduce((sum, one) => sum + one, 0);
      }
      if (serviceArea)
        return readListTotal(table, workspaceId, INCIDENT_COUNTER, serviceFilterValues(serviceArea, status));
      return readCountedTotal(table, workspaceId, INCIDENT_COUNTER, { status, priority, environment });
    };
    return queryPage(table, query, page, (item) => incidentFromItem(workspaceId, item), total);
  };

  /**
   * Updates an existing incident and returns its state before and after the write (`ALL_OLD`, so the
   * diff is the one this write made even when others write concurrently). Undefined when the incident does
   * not exist or `condition` does not hold.
   */
  const updateIncidentItem = async (
    incidentId: string,
    update: ItemUpdate,
    condition?: IncidentCondition,
  ): Promise<{ before: Incident; after: Incident } | undefined> => {
    const { expression, names, values } = updateExpression(update);
    const when = condition && conditionExpression(condition);
    const old = await updateIfPresent(
      table,
      incidentItemKey(workspaceId, incidentId),
      {
        UpdateExpression: expression,
        ConditionExpression: when?.expression,
        ExpressionAttributeNames: { ...names, ...when?.names },
        ExpressionAttributeValues: { ...values, ...when?.values },
      },
      'ALL_OLD',
    );
    return (
      old && {
        before: incidentFromItem(workspaceId, old),
        after: incidentFromItem(workspaceId, applyUpdate(old, update)),
      }
    );
  };

  /**
   * Claims page `step` of an incident's escalation: recorded only while it is still OPEN (by hand: not resolved
   * or closed) and fewer pages were sent, so of two sweeps at the same instant one sends it. An escalate-now also
   * moves `escalationStartedAt`. Answers the write, or undefined if not claimed.
   */
  const claimEscalation = async (
    incidentId: string,
    { step, dueAt, level, startedAt }: { step: number; dueAt: string; level: number; startedAt?: string },
  ): Promise<{ before: Incident; after: Incident } | undefined> => {
    const set = { escalationCount: step, lastEscalatedAt: dueAt, escalationLevel: level };
    const update: ItemUpdate = {
      set: startedAt ? { ...set, escalationStartedAt: startedAt } : set,
      setIfAbsent: {},
      remove: [],
    };
    const { expression, names, values } = updateExpression(update);
    const old = await updateIfPresent(
      table,
      incidentItemKey(workspaceId, incidentId),
      {
        UpdateExpression: expression,
        ConditionExpression: `${startedAt ? 'NOT (#status IN (:resolved, :closed))' : '#status = :open'} AND (attribute_not_exists(#escalations) OR #escalations < :step)`,
        ExpressionAttributeNames: { ...names, '#status': 'status', '#escalations': 'escalationCount' },
        ExpressionAttributeValues: {
          ...values,
          ...(startedAt ? { ':resolved': 'RESOLVED', ':closed': 'CLOSED' } : { ':open': 'OPEN' }),
          ':step': step,
        },
      },
      'ALL_OLD',
    );
    return (
      old && {
        before: incidentFromItem(workspaceId, old),
        after: incidentFromItem(workspaceId, applyUpdate(old, update)),
      }
    );
  };

  /**
   * Every incident still OPEN (gsi1): the ones nobody acknowledged, which the escalation sweep pages again.
   * The index lags writes a little; the escalation's own write is conditional on OPEN for that reason.
   */
  const queryOpenIncidents = (): Promise<Incident[]> => queryIncidentsIn('OPEN');

  /** Every incident in one status (gsi1): the OPEN ones, or the ACKNOWLEDGED ones an ack timeout may reopen. */
  const queryIncidentsIn = async (status: IncidentStatus): Promise<Incident[]> => {
    const items = await queryAll(table, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': incidentStatusPartition(workspaceId, status) },
    });
    return items.map((item) => incidentFromItem(workspaceId, item));
  };

  /** Deletes every item of the incident's own partition: comments, messages, signal links, drafts. */
  const deleteIncidentChildren = async (incidentId: string): Promise<void> => {
    const children = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': incidentChildPartition(workspaceId, incidentId) },
      ProjectionExpression: 'pk, sk',
    });
    await batchDeleteItems(table, children.map(keyOf));
  };

  /** Deletes the incident item itself and returns what it held; undefined if it was already gone. */
  const deleteIncidentItem = async (incidentId: string): Promise<Incident | undefined> => {
    const item = await deleteIfPresent(table, incidentItemKey(workspaceId, incidentId));
    return item && incidentFromItem(workspaceId, item);
  };
  return {
    putIncident,
    getIncident,
    queryIncidents,
    queryOpenIncidents,
    queryIncidentsIn,
    updateIncidentItem,
    claimEscalation,
    deleteIncidentChildren,
    deleteIncidentItem,
  };
};
