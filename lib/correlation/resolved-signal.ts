import type { Scope } from '#lib/identity/scope.ts';
import { isDone, type Incident } from '#lib/incidents/incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { recordMessageOnce } from '#lib/incidents/message-repository.ts';
import { resolveOpenIncident } from '#lib/incidents/resolve-incident.ts';
import { signalLinkRepository } from '#lib/incidents/signal-link-repository.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { resolvedNoteRepository } from './resolved-note-repository.ts';
import { effectiveRules } from './rule-service.ts';

export type ResolvedOutcome =
  | { kind: 'ignored'; reason: 'missing' | 'not-resolved' | 'no-incident' | 'signals-open' }
  | { kind: 'all-resolved'; incidentId: string; autoResolved: boolean };

/**
 * Writes the SYSTEM message once per set of signals: the first delivery claims the message's id and
 * time, and every delivery writes that message unless it is there already.
 */
const noteAllResolved = async (scope: Scope, incident: Incident, signals: number): Promise<void> => {
  const { ports, workspaceId } = scope;
  const note = await resolvedNoteRepository(ports.table, workspaceId).claimResolvedNote({
    incidentId: incident.id,
    signals,
    messageId: ports.ids.sortable(),
    createdAt: ports.clock.now().toISOString(),
  });
  const text = signals === 1 ? 'Its signal has resolved' : `All ${signals} of its signals have resolved`;
  await recordMessageOnce(ports.table, workspaceId, {
    id: note.messageId,
    ticketId: incident.id,
    kind: 'SYSTEM',
    text,
    actor: 'system',
    createdAt: note.createdAt,
  });
};

/**
 * Resolves the incident through the incidents' own resolve (history, counters, SLA, notifications
 * follow) when the rule that linked its signals asks for it. An incident resolved meanwhile, by a
 * person or by an earlier delivery of this message, is left as it is.
 */
const autoResolve = async (scope: Scope, incident: Incident, ruleId: string): Promise<boolean> => {
  if (isDone(incident.status)) return false;
  const rule = (await effectiveRules(scope)).find(({ id }) => id === ruleId);
  if (!rule?.autoResolve) return false;
  const resolved = await resolveOpenIncident(
    scope,
    incident.id,
    'Resolved automatically: every linked signal resolved, and its correlation rule asks for it (autoResolve).',
  );
  return resolved !== undefined;
};

/**
 * What follows a linked signal's resolution (docs/correlation.md, "When signals resolve"), run by the
 * correlation worker so the resolving request writes nothing more: when every signal linked to the
 * signal's incident is RESOLVED, the incident's thread says so in a SYSTEM message, and the incident
 * resolves itself if the rule that opened it has `autoResolve`. Idempotent: a redelivery finds the
 * message claimed and the incident resolved.
 */
export const followResolvedSignal = async (scope: Scope, signalId: string): Promise<ResolvedOutcome> => {
  const { ports, workspaceId } = scope;
  const signalIncidents = signalIncidentRepository(ports.table, workspaceId);
  const [signal] = await signalIncidents.readSignals([signalId]);
  if (!signal) return { kind: 'ignored', reason: 'missing' };
  if (signal.status !== 'RESOLVED') return { kind: 'ignored', reason: 'not-resolved' };
  const incident = signal.incidentId
    ? await incidentRepository(ports.table, workspaceId).getIncident(signal.incidentId)
    : undefined;
  if (!incident) return { kind: 'ignored', reason: 'no-incident' };
  const links = await signalLinkRepository(ports.table, workspaceId).listSignalLinks(incident.id);
  const linked = await signalIncidents.readSignals(links.map((link) => link.signalId));
  if (linked.some((other) => other.status !== 'RESOLVED')) return { kind: 'ignored', reason: 'signals-open' };
  await noteAllResolved(scope, incident, links.length);
  // Every link of a correlated incident is made by the rule of the group that opened it.
  const [first] = links;
  const autoResolved = first ? await autoResolve(scope, incident, first.ruleId) : false;
  return { kind: 'all-resolved', incidentId: incident.id, autoResolved };
};
