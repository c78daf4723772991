import { NotFoundError } from '#lib/contract/errors.ts';
import type { Incident } from './incident.ts';
import { incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

/**
 * The incident by record id or ticket id; unknown, malformed or another workspace's: 404, its message naming
 * `field`, the request field the id came in (`id`, `ticketId`, `incidentId`).
 */
export const findIncident = async (
  { ports, workspaceId }: Scope,
  incidentId: string,
  field = 'id',
): Promise<Incident> => {
  const incident = await incidentRepository(ports.table, workspaceId).getIncident(incidentId);
  if (!incident)
    throw new NotFoundError('Incident not found', [`${field}: no incident ${incidentId} in this workspace`]);
  return incident;
};
