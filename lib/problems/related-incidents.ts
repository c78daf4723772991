import { isIncidentId } from '#lib/incidents/incident.ts';
import { existingIncidentIds } from './related-incident-repository.ts';
import { BadRequestError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';

/**
 * The related incidents without duplicates, in the order given, once each is known to be an incident of
 * the caller's workspace; otherwise a 400 with one message per unknown id. Another workspace's incident
 * is unknown here, since its key is under that workspace.
 */
export const checkRelatedIncidents = async (
  { ports: { table }, workspaceId }: Scope,
  ids: readonly string[],
): Promise<string[]> => {
  const unique = [...new Set(ids)];
  const candidates = unique.filter(isIncidentId);
  const found = candidates.length > 0 ? await existingIncidentIds(table, workspaceId, candidates) : new Set<string>();
  const unknown = ids.flatMap((id, index) =>
    found.has(id) ? [] : [`relatedIncidentIds.${index}: no incident ${id} in this workspace`],
  );
  if (unknown.length > 0) throw new BadRequestError('Unknown related incidents', unknown);
  return unique;
};
