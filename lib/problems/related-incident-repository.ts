import { incidentItemKey } from '#lib/incidents/incident-item.ts';
import { batchGetItems } from '#lib/store/batch.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * The incident ids among `ids` that exist in the workspace, read consistently: what a problem's related
 * incidents are checked against. Apart from the incident repository, which every incident route's cold
 * start loads, so that only the problem routes carry the batch read.
 */
export const existingIncidentIds = async (
  table: Table,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> => {
  const items = await batchGetItems(
    table,
    ids.map((id) => incidentItemKey(workspaceId, id)),
  );
  return new Set(items.map((item) => item.sk as string));
};
