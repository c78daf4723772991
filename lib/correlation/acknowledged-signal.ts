import type { Scope } from '#lib/identity/scope.ts';
import { acknowledgeOpenIncident } from '#lib/incidents/acknowledge-incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';

export type AcknowledgedOutcome =
  | { kind: 'ignored'; reason: 'missing' | 'not-acknowledged' | 'no-incident' | 'not-open' }
  | { kind: 'incident-acknowledged'; incidentId: string };

/**
 * What follows a sender's acknowledge of a linked signal (a PagerDuty `acknowledge` event, an Opsgenie
 * acknowledge: "the incident referenced will enter the acknowledged state"): the incident, if still OPEN, is
 * acknowledged through the incidents' own acknowledge (history, thread, SLA response, escalation stops), the
 * history naming the sender. An incident someone moved meanwhile, or a redelivered message, changes nothing.
 */
export const followAcknowledgedSignal = async (scope: Scope, signalId: string): Promise<AcknowledgedOutcome> => {
  const { ports, workspaceId } = scope;
  const [signal] = await signalIncidentRepository(ports.table, workspaceId).readSignals([signalId]);
  if (!signal) return { kind: 'ignored', reason: 'missing' };
  if (signal.status !== 'ACKNOWLEDGED') return { kind: 'ignored', reason: 'not-acknowledged' };
  const incident = signal.incidentId
    ? await incidentRepository(ports.table, workspaceId).getIncident(signal.incidentId)
    : undefined;
  if (!incident) return { kind: 'ignored', reason: 'no-incident' };
  const { acknowledged } = await acknowledgeOpenIncident(scope, {
    incident,
    note: `by ${signal.source}'s acknowledge of the signal "${signal.name}"`,
  });
  return acknowledged
    ? { kind: 'incident-acknowledged', incidentId: incident.id }
    : { kind: 'ignored', reason: 'not-open' };
};
