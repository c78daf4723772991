import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { addToIncidentRollups } from '#lib/incidents/incident-rollup.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { type Signal, signalTime } from '#lib/signals/signal.ts';
import { recordHistory } from '#lib/tickets/history-repository.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { signalLinkRepository } from '#lib/incidents/signal-link-repository.ts';

/** Which signal to link to which incident, by which correlation rule. */
export interface SignalLinking {
  incidentId: string;
  signal: Pick<Signal, 'id' | 'name' | 'triggeredAt' | 'createdAt'>;
  ruleId: string;
  /**
   * The incident's earliest signal as the caller read it. A signal no earlier cannot lower it, so its
   * conditional write (which fails, and costs a write unit even so) is not sent.
   */
  incidentFirstSignalAt?: string | undefined;
}

export type LinkResult = 'linked' | 'already-linked' | 'in-another-incident';

/**
 * `firstSignalAt = min(firstSignalAt, t)`: the earliest signal of the incident, for time to detect,
 * which the dashboard's rollup of the incident's creation hour then counts.
 */
const lowerFirstSignalAt = async (scope: Scope, incidentId: string, at: string): Promise<void> => {
  const {
    ports: { table },
    workspaceId,
  } = scope;
  const written = await incidentRepository(table, workspaceId).updateIncidentItem(
    incidentId,
    { set: { firstSignalAt: at }, setIfAbsent: {}, remove: [] },
    { field: 'firstSignalAt', absentOrAfter: at },
  );
  if (written) await addToIncidentRollups(scope, written);
};

/**
 * Links a signal to an incident both ways (docs/data-model.md 5.7): the INCIDENT_SIGNAL_LINK in the
 * incident's partition, then the signal's `incidentId`. Only the write that first points the signal at
 * the incident records the SIGNAL_LINKED history event and lowers the incident's `firstSignalAt`, so a
 * repeated delivery links once. A signal already in another incident stays there, and the link just
 * made is taken back.
 */
export const linkSignal = async (
  scope: Scope,
  { incidentId, signal, ruleId, incidentFirstSignalAt }: SignalLinking,
): Promise<LinkResult> => {
  const { ports, workspaceId } = scope;
  const signalLinks = signalLinkRepository(ports.table, workspaceId);
  const at = ports.clock.now().toISOString();
  const created = await signalLinks.insertSignalLink({
    incidentId,
    signalId: signal.id,
    ruleId,
    linkedAt: at,
  });
  const result = await signalIncidentRepository(ports.table, workspaceId).setSignalIncident(signal.id, incidentId, at);
  if (result === 'in-another-incident' && created) await signalLinks.deleteSignalLink(incidentId, signal.id);
  if (result !== 'linked') return result;
  const signalAt = signalTime(signal);
  const earlier = !incidentFirstSignalAt || Date.parse(signalAt) < Date.parse(incidentFirstSignalAt);
  await Promise.all([
    recordHistory(ports, workspaceId, [
      {
        ticketId: incidentId,
        ticketType: 'INCIDENT',
        event: 'SIGNAL_LINKED',
        to: signal.id,
        actor: 'system',
        message: `Signal "${signal.name}" linked by correlation rule ${ruleId}`,
      },
    ]),
    earlier && lowerFirstSignalAt(scope, incidentId, signalAt),
  ]);
  return result;
};
