import type { QueryInput } from '#lib/store/queries.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import type { IncidentPriority, IncidentStatus } from './incident.ts';
import {
  incidentEnvironmentPartition,
  incidentPartition,
  incidentPriorityPartition,
  incidentServicePartition,
  incidentStatusPartition,
} from './incident-item.ts';

export interface IncidentFilters {
  status?: IncidentStatus;
  /** Only the incidents still open (true) or only those RESOLVED or CLOSED (false). */
  open?: boolean;
  priority?: IncidentPriority;
  environment?: string;
  /** Matched as its normalised key (`filterKey`): whole value, any case, surrounding spaces ignored. */
  serviceArea?: string;
  /** ISO 8601 UTC instants, inclusive, on `createdAt`. */
  from?: string;
  to?: string;
}

const idDay = (instant: string): string => instant.slice(0, 10).replaceAll('-', '');

/** The index and partition a filtered list reads: the narrowest one a given filter has. */
const listPartition = (
  workspaceId: string,
  { status, priority, environment, serviceArea }: IncidentFilters,
): readonly [index: 'gsi1' | 'gsi2' | 'gsi4' | 'gsi5' | undefined, partition: string] => {
  if (serviceArea) return ['gsi5', incidentServicePartition(workspaceId, filterKey(serviceArea))];
  if (status) return ['gsi1', incidentStatusPartition(workspaceId, status)];
  if (priority) return ['gsi2', incidentPriorityPartition(workspaceId, priority)];
  if (environment) return ['gsi4', incidentEnvironmentPartition(workspaceId, filterKey(environment))];
  return [undefined, incidentPartition(workspaceId)];
};

/**
 * The query for a filtered list, newest first (docs/data-model.md 4 and 5.4): the service-area partition
 * (gsi5) if a service area is given, it being the narrowest (a status holds every service's incidents),
 * else the status partition (gsi1), else the priority partition (gsi2), else the environment partition
 * (gsi4), else the base partition. Ids start
 * with the UTC day, so a date range narrows the key range to those days and a filter on `createdAt`
 * trims the edges; the remaining filters go in the FilterExpression.
 */
export const listQuery = (workspaceId: string, filters: IncidentFilters): QueryInput => {
  const { status, open, priority, environment, from, to } = filters;
  const [index, partition] = listPartition(workspaceId, filters);
  const names: Record<string, string> = { '#pk': index ? `${index}pk` : 'pk' };
  const values: Record<string, unknown> = { ':pk': partition };
  let keyCondition = '#pk = :pk';
  if (from || to) {
    names['#sk'] = index ? `${index}sk` : 'sk';
    if (from) values[':fromId'] = `INC-${idDay(from)}-`;
    if (to) values[':toId'] = `INC-${idDay(to)}-~`;
    keyCondition +=
      from && to ? ' AND #sk BETWEEN :fromId AND :toId' : from ? ' AND #sk >= :fromId' : ' AND #sk <= :toId';
  }
  const conditions: string[] = [];
  if (status && index !== 'gsi1') {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = status;
  }
  if (open !== undefined) {
    conditions.push(`${open ? 'NOT ' : ''}#status IN (:resolved, :closed)`);
    names['#status'] = 'status';
    Object.assign(values, { ':resolved': 'RESOLVED', ':closed': 'CLOSED' } satisfies Record<string, IncidentStatus>);
  }
  if (priority && index !== 'gsi2') {
    conditions.push('#priority = :priority');
    names['#priority'] = 'priority';
    values[':priority'] = priority;
  }
  if (environment && index !== 'gsi4') {
    conditions.push('environmentKey = :environment');
    values[':environment'] = filterKey(environment);
  }
  if (from || to) names['#createdAt'] = 'createdAt';
  if (from) {
    conditions.push('#createdAt >= :from');
    values[':from'] = from;
  }
  if (to) {
    conditions.push('#createdAt <= :to');
    values[':to'] = to;
  }
  return {
    ...(index && { IndexName: index }),
    KeyConditionExpression: keyCondition,
    ...(conditions.length > 0 && { FilterExpression: conditions.join(' AND ') }),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
};
