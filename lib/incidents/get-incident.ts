import { NotFoundError } from '#lib/contract/errors.ts';
import type { Incident } from './incident.ts';
import { getIncident } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** The incident by record id or ticket id; unknown, malformed or another workspace's: 404. */
export const findIncident = async ({ ports: runtime, workspaceId }: Scope, incidentId: string): Promise<Incident> => {
  const incident = await getIncident(runtime.table, workspaceId, incidentId);
  if (!incident) throw new NotFoundError('Incident not found', [`id: no incident ${incidentId} in this workspace`]);
  return incident;
};
