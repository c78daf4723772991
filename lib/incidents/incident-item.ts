import { workspaceKey } from '#lib/store/keys.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import { ticketIndexKeys } from '#lib/tickets/ticket-item.ts';
import {
  isAcknowledged,
  isDone,
  type Incident,
  type IncidentChanges,
  type IncidentPriority,
  type IncidentStatus,
} from './incident.ts';

/** Every incident of a workspace, in `incidentSortKey` order: by UTC day, then by the day's number. */
export const incidentPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'INC');

/**
 * Where an incident sits in the key order of its partitions. Ids up to number 9999 are their own key, as
 * they always were; a longer number is preceded by the letter whose place in the alphabet is its count of
 * digits (`E` for five, `F` for six), and letters sort after digits, so `INC-20261123-E10000` follows
 * `INC-20261123-9999`, a longer number always follows a shorter one, and "newest first" stays a key
 * order. Every key still lies between `INC-<day>-` and `INC-<day>-~`, the bounds of a date range.
 */
const incidentSortKey = (incidentId: string): string => {
  const numberStart = incidentId.lastIndexOf('-') + 1;
  const digits = incidentId.length - numberStart;
  if (digits <= 4) return incidentId;
  return `${incidentId.slice(0, numberStart)}${String.fromCharCode('A'.charCodeAt(0) + digits - 1)}${incidentId.slice(numberStart)}`;
};

export const incidentItemKey = (workspaceId: string, incidentId: string) => ({
  pk: incidentPartition(workspaceId),
  sk: incidentSortKey(incidentId),
});

/** gsi1: the incidents in one status. */
export const incidentStatusPartition = (workspaceId: string, status: IncidentStatus): string =>
  workspaceKey(workspaceId, 'INC', 'STATUS', status);

/** gsi2: the incidents of one priority. */
export const incidentPriorityPartition = (workspaceId: string, priority: IncidentPriority): string =>
  workspaceKey(workspaceId, 'INC', 'PRIORITY', priority);

/** gsi4, sparse: the incidents of one environment (its normalised key). */
export const incidentEnvironmentPartition = (workspaceId: string, environmentKey: string): string =>
  workspaceKey(workspaceId, 'INC', 'ENV', environmentKey);

/** The gsi4 attributes of an incident with an environment; an update that changes it SETs or REMOVEs them. */
const environmentIndexKeys = (workspaceId: string, incidentId: string, environment: string) => ({
  gsi4pk: incidentEnvironmentPartition(workspaceId, filterKey(environment)),
  gsi4sk: incidentSortKey(incidentId),
});

/** gsi5, sparse: the incidents of one service area (its normalised key), the list's `serviceArea` filter. */
export const incidentServicePartition = (workspaceId: string, serviceAreaKey: string): string =>
  workspaceKey(workspaceId, 'INC', 'SERVICE', serviceAreaKey);

/** The gsi5 attributes of an incident with a service area; an update that changes it SETs or REMOVEs them. */
const serviceIndexKeys = (workspaceId: string, incidentId: string, serviceArea: string) => ({
  gsi5pk: incidentServicePartition(workspaceId, filterKey(serviceArea)),
  gsi5sk: incidentSortKey(incidentId),
});

/** An incident's own items: comments, messages, signal links, drafts. Deleted with the incident. */
export const incidentChildPartition = (workspaceId: string, incidentId: string): string =>
  workspaceKey(workspaceId, 'INC', incidentId);

/** The index attributes an incident's state decides; an update that changes status or priority SETs them. */
const indexKeys = (workspaceId: string, incident: Pick<Incident, 'id' | 'status' | 'priority'>) => ({
  gsi1pk: incidentStatusPartition(workspaceId, incident.status),
  gsi1sk: incidentSortKey(incident.id),
  gsi2pk: incidentPriorityPartition(workspaceId, incident.priority),
  gsi2sk: incidentSortKey(incident.id),
});

/** Filter attributes kept beside the fields they normalise; null means the attribute is removed. */
const filterAttributes = (incident: Pick<Incident, 'environment' | 'source'>) => ({
  environmentKey: incident.environment === undefined ? null : filterKey(incident.environment),
  sourceKey: incident.source === undefined ? null : filterKey(incident.source),
});

const KEY_ATTRIBUTES = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'gsi5pk',
  'gsi5sk',
] as const;
const STORAGE_ATTRIBUTES = [...KEY_ATTRIBUTES, 'type', 'workspaceId', 'environmentKey', 'sourceKey'] as const;

export const incidentToItem = (workspaceId: string, incident: Incident): Record<string, unknown> => {
  const filters = Object.entries(filterAttributes(incident)).filter(([, value]) => value !== null);
  return {
    ...incidentItemKey(workspaceId, incident.id),
    ...indexKeys(workspaceId, incident),
    ...ticketIndexKeys(workspaceId, incident),
    ...(incident.environment !== undefined && environmentIndexKeys(workspaceId, incident.id, incident.environment)),
    ...(incident.serviceArea !== undefined && serviceIndexKeys(workspaceId, incident.id, incident.serviceArea)),
    type: 'INCIDENT',
    workspaceId,
    ...incident,
    ...Object.fromEntries(filters),
  };
};

export const incidentFromItem = (workspaceId: string, item: Record<string, unknown>): Incident => {
  if (item.workspaceId !== workspaceId) throw new Error('an incident item of another workspace was read');
  const incident = { ...item };
  for (const attribute of STORAGE_ATTRIBUTES) delete incident[attribute];
  return incident as unknown as Incident;
};

/**
 * An UpdateItem as data, so the repository can both send it and apply it to the item it replaced
 * (`ALL_OLD`) to know the new state without a second read.
 */
export interface ItemUpdate {
  set: Record<string, unknown>;
  /** `SET name = if_not_exists(name, value)`: a first occurrence that later writes keep. */
  setIfAbsent: Record<string, unknown>;
  remove: string[];
}

/**
 * The item update for changed incident fields (null removes a field), with the index and filter
 * attributes they decide, and the status timestamps: `acknowledgedAt` and `acknowledgedBy` on the first move out
 * of OPEN (kept after), `resolvedAt`/`resolvedBy` on entering RESOLVED or CLOSED, removed when the incident is
 * reopened (moved to any other status).
 */
export const incidentUpdate = (
  workspaceId: string,
  incidentId: string,
  changes: IncidentChanges,
  { now, actor }: { now: string; actor: string },
): ItemUpdate => {
  const update: ItemUpdate = { set: { updatedAt: now }, setIfAbsent: {}, remove: [] };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) update.remove.push(field);
    else if (value !== undefined) update.set[field] = value;
  }
  const { status, priority, environment, serviceArea, source } = changes;
  if (status) {
    update.set.gsi1pk = incidentStatusPartition(workspaceId, status);
    if (isAcknowledged(status)) Object.assign(update.setIfAbsent, { acknowledgedAt: now, acknowledgedBy: actor });
    if (status === 'ACKNOWLEDGED') update.set.lastAcknowledgedAt = now;
    if (isDone(status)) Object.assign(update.setIfAbsent, { resolvedAt: now, resolvedBy: actor });
    else update.remove.push('resolvedAt', 'resolvedBy');
  }
  if (priority) update.set.gsi2pk = incidentPriorityPartition(workspaceId, priority);
  if (environment === null) update.remove.push('environmentKey', 'gsi4pk', 'gsi4sk');
  else if (environment !== undefined) {
    update.set.environmentKey = filterKey(environment);
    Object.assign(update.set, environmentIndexKeys(workspaceId, incidentId, environment));
  }
  if (serviceArea === null) update.remove.push('gsi5pk', 'gsi5sk');
  else if (serviceArea !== undefined) Object.assign(update.set, serviceIndexKeys(workspaceId, incidentId, serviceArea));
  if (source === null) update.remove.push('sourceKey');
  else if (source !== undefined) update.set.sourceKey = filterKey(source);
  return update;
};
