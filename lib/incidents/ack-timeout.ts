import type { Scope } from '#lib/identity/scope.ts';
import type { PlanResolver } from './escalation-plan-of.ts';
import type { Incident } from './incident.ts';
import { historyOfUpdate, messagesOfUpdate, recordIncidentChange } from './incident-changes.ts';
import { incidentUpdate } from './incident-item.ts';
import { queueIncidentEvents } from './incident-notifications.ts';
import { incidentRepository } from './incident-repository.ts';

const MINUTE = 60_000;

/**
 * Returns one timed-out incident to OPEN and pages its policy's level 1 again (docs/on-call.md, "Ack timeout"):
 * the write is conditional on the incident being as read (`updatedAt`), so of two sweeps one reopens it, and an
 * acknowledgement or resolution in between keeps it where it is. Its escalation starts again from now.
 */
const reopen = async (scope: Scope, incident: Incident, policyId: string, minutes: number, now: Date) => {
  const { ports, workspaceId } = scope;
  const at = now.toISOString();
  const update = incidentUpdate(workspaceId, incident.id, { status: 'OPEN' }, { now: at, actor: scope.actor });
  Object.assign(update.set, { escalationCount: 0, escalationLevel: 1, escalationStartedAt: at });
  const written = await incidentRepository(ports.table, workspaceId).updateIncidentItem(incident.id, update, {
    field: 'updatedAt',
    equals: incident.updatedAt,
  });
  if (!written) return false;
  const { before, after } = written;
  const note = `not resolved ${minutes} minutes after it was acknowledged: paged again`;
  await recordIncidentChange(scope, before, after, {
    history: historyOfUpdate(before, after).map((event) => ({ ...event, message: note })),
    messages: messagesOfUpdate(before, after, scope.actor).map((message) => ({
      ...message,
      text: `${message.text}, ${note}`,
    })),
  });
  await queueIncidentEvents(scope, [
    { workspaceId, incidentId: after.id, event: 'ESCALATION', at, priority: after.priority, policyId, levels: [1] },
  ]);
  return true;
};

/**
 * Every ACKNOWLEDGED incident whose policy has an `ackTimeoutMinutes` that ran out since its last acknowledgement
 * goes back to OPEN. Only ACKNOWLEDGED: an incident moved on to INVESTIGATION or MITIGATED is being worked on,
 * which is what the timeout waits for. Answers how many it reopened.
 */
export const reopenUnresolved = async (scope: Scope, resolver: PlanResolver, now: Date): Promise<number> => {
  const acknowledged = await incidentRepository(scope.ports.table, scope.workspaceId).queryIncidentsIn('ACKNOWLEDGED');
  let reopened = 0;
  for (const incident of acknowledged) {
    const { policy } = resolver.planOf(incident);
    const minutes = policy?.ackTimeoutMinutes;
    const since = incident.lastAcknowledgedAt ?? incident.acknowledgedAt;
    if (!policy || !minutes || !since || Date.parse(since) + minutes * MINUTE > now.getTime()) continue;
    if (await reopen(scope, incident, policy.id, minutes, now)) reopened += 1;
  }
  return reopened;
};
