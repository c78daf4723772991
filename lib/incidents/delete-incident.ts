import { releaseIncidentSignals } from '#lib/incidents/incident-signals.ts';
import { NotFoundError } from '#lib/contract/errors.ts';
import { findIncident } from './get-incident.ts';
import { incidentAnalysisRepository } from './incident-analysis-repository.ts';
import { recordIncidentChange } from './incident-changes.ts';
import { incidentRepository } from './incident-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

/**
 * Deletes an incident for good: its signals stop naming it, then its comments, messages and other
 * children go, then its analyses, and the incident itself last, so a crash leaves the incident in
 * place and repeating the delete finishes the job. The history stays (audit) and gains a DELETED event naming what was deleted.
 */
export const deleteIncident = async (scope: Scope, incidentId: string): Promise<{ id: string }> => {
  const { ports, workspaceId } = scope;
  const incidents = incidentRepository(ports.table, workspaceId);
  const { id } = await findIncident(scope, incidentId);
  await releaseIncidentSignals(scope, id);
  await incidents.deleteIncidentChildren(id);
  await incidentAnalysisRepository(ports.table, workspaceId).deleteIncidentAnalyses(id);
  const deleted = await incidents.deleteIncidentItem(id);
  if (!deleted) throw new NotFoundError('Incident not found', [`id: incident ${incidentId} was already deleted`]);
  await recordIncidentChange(scope, deleted, undefined, {
    history: [{ event: 'DELETED', from: deleted.status, to: null, message: `Deleted incident: ${deleted.summary}` }],
  });
  return { id };
};
