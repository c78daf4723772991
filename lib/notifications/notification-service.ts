import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { Delivery } from './delivery.ts';
import { deliveryRepository } from './delivery-repository.ts';

/** Every notification of the incident with its attempts, oldest event first (404 for another workspace's id). */
export const listIncidentNotifications = async (scope: Scope, incidentId: string): Promise<Delivery[]> => {
  const incident = await findIncident(scope, incidentId);
  return deliveryRepository(scope.ports.table, scope.workspaceId).queryIncidentDeliveries(incident.id);
};
