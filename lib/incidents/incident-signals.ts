import { findIncident } from './get-incident.ts';
import type { Signal } from '#lib/signals/signal.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { signalLinkRepository } from './signal-link-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

export type IncidentSignal = Signal & { linkedAt: string; ruleId: string };

/**
 * The signals of an incident in the order they were received, each with when and by which rule it was
 * linked. An unknown incident is a 404; a linked signal deleted since is left out.
 */
export const listIncidentSignals = async (scope: Scope, incidentId: string): Promise<IncidentSignal[]> => {
  const { ports, workspaceId } = scope;
  const incident = await findIncident(scope, incidentId);
  const links = await signalLinkRepository(ports.table, workspaceId).listSignalLinks(incident.id);
  const signals = new Map(
    (await signalIncidentRepository(ports.table, workspaceId).readSignals(links.map((link) => link.signalId))).map(
      (signal) => [signal.id, signal],
    ),
  );
  return links.flatMap((link) => {
    const signal = signals.get(link.signalId);
    return signal ? [{ ...signal, linkedAt: link.linkedAt, ruleId: link.ruleId }] : [];
  });
};

/**
 * For deleting an incident (docs/data-model.md 5.4): each linked signal stops naming it, so the signal
 * can show no incident rather than a deleted one. Call it before the incident's children (the links)
 * are deleted; repeating it is harmless.
 */
export const releaseIncidentSignals = async (
  { ports: { table }, workspaceId }: Scope,
  incidentId: string,
): Promise<void> => {
  const links = await signalLinkRepository(table, workspaceId).listSignalLinks(incidentId);
  await Promise.all(
    links.map((link) => signalIncidentRepository(table, workspaceId).clearSignalIncident(link.signalId, incidentId)),
  );
};
