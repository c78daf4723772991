import type { Scope } from '#lib/identity/scope.ts';
import { coversAny, type MaintenanceWindow, servicesOfArea } from '#lib/maintenance/maintenance-window.ts';
import { ulidFloor } from '#lib/ports/ids.ts';
import type { Incident } from './incident.ts';
import { recordMessageOnce } from './message-repository.ts';

/** The open window that holds the incident's services, if any (the one ending last). */
export const windowHolding = (
  windows: readonly MaintenanceWindow[],
  incident: Pick<Incident, 'serviceArea'>,
): MaintenanceWindow | undefined => {
  const services = servicesOfArea(incident.serviceArea);
  return windows.filter((window) => coversAny(window, services)).sort((a, b) => b.endsAt.localeCompare(a.endsAt))[0];
};

/**
 * Tells the incident's thread, once per window, that its escalation is held (docs/heartbeats.md): the
 * message's id is made of the window's, placed in time where the hold began, so every sweep of the window
 * writes the same message and only the first one lands.
 */
export const noteEscalationHeld = async (scope: Scope, incident: Incident, window: MaintenanceWindow) => {
  const since = window.startsAt > incident.createdAt ? window.startsAt : incident.createdAt;
  await recordMessageOnce(scope.ports.table, scope.workspaceId, {
    id: `${ulidFloor(new Date(since)).slice(0, 10)}${window.id.slice(10)}`,
    ticketId: incident.id,
    kind: 'SYSTEM',
    text: `Escalation held: ${window.serviceIds.join(', ')} in maintenance ("${window.reason}") until ${window.endsAt}.`,
    actor: 'system',
    createdAt: since,
  });
};
