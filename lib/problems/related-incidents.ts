import { isIncidentId } from '#lib/incidents/incident.ts';
import { incidentItemKey } from '#lib/incidents/incident-item.ts';
import { BadRequestError } from '#lib/contract/errors.ts';
import { batchGetItems } from '#lib/store/batch.ts';
import type { Table } from '#lib/store/table.ts';

/** The incident ids among `ids` that exist in the workspace, read consistently. */
const existingIncidents = async (table: Table, workspaceId: string, ids: readonly string[]): Promise<Set<string>> => {
  const items = await batchGetItems(
    table,
    ids.map((id) => incidentItemKey(workspaceId, id)),
  );
  return new Set(items.map((item) => item.sk as string));
};

/**
 * The related incidents without duplicates, in the order given, once each is known to be an incident of
 * the caller's workspace; otherwise a 400 with one message per unknown id. Another workspace's incident
 * is unknown here, since its key is under that workspace.
 */
export const checkRelatedIncidents = async (
  table: Table,
  workspaceId: string,
  ids: readonly string[],
): Promise<string[]> => {
  const unique = [...new Set(ids)];
  const candidates = unique.filter(isIncidentId);
  const found = candidates.length > 0 ? await existingIncidents(table, workspaceId, candidates) : new Set<string>();
  const unknown = ids.flatMap((id, index) =>
    found.has(id) ? [] : [`relatedIncidentIds.${index}: no incident ${id} in this workspace`],
  );
  if (unknown.length > 0) throw new BadRequestError('Unknown related incidents', unknown);
  return unique;
};
