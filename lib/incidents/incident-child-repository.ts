import type { Item } from '#lib/store/items.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { incidentChildPartition } from './incident-item.ts';

/**
 * A kind of item kept in its incident's own partition (comments, messages, signal links), so deleting the
 * incident deletes them too: its item type, its sort-key prefix and the fields it stores.
 */
export interface IncidentChildKind<T> {
  type: string;
  sortPrefix: string;
  /** The incident a child belongs to, and its id within the incident (the sort key after the prefix). */
  placeOf: (child: T) => { incidentId: string; id: string };
  fields: readonly (keyof T & string)[];
}

export const incidentChildKey = <T>(
  kind: IncidentChildKind<T>,
  workspaceId: string,
  incidentId: string,
  id: string,
) => ({
  pk: incidentChildPartition(workspaceId, incidentId),
  sk: `${kind.sortPrefix}${id}`,
});

export const incidentChildToItem = <T extends object>(
  kind: IncidentChildKind<T>,
  workspaceId: string,
  child: T,
): Item => {
  const { incidentId, id } = kind.placeOf(child);
  return { ...incidentChildKey(kind, workspaceId, incidentId, id), type: kind.type, workspaceId, ...child };
};

const incidentChildFromItem = <T>(kind: IncidentChildKind<T>, workspaceId: string, item: Item): T => {
  if (item.workspaceId !== workspaceId) throw new Error(`a ${kind.type} item of another workspace was read`);
  return Object.fromEntries(kind.fields.map((field) => [field, item[field]])) as T;
};

/** Every child of the kind, in sort-key order: by ULID (the order written) or by signal id. */
export const listIncidentChildren = async <T>(
  kind: IncidentChildKind<T>,
  table: Table,
  workspaceId: string,
  incidentId: string,
): Promise<T[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': incidentChildPartition(workspaceId, incidentId), ':prefix': kind.sortPrefix },
  });
  return items.map((item) => incidentChildFromItem(kind, workspaceId, item));
};
