import type { Scope } from '#lib/identity/scope.ts';
import type { Incident, PageChannel } from './incident.ts';
import { historyOfUpdate, messagesOfUpdate, recordIncidentChange } from './incident-changes.ts';
import { incidentUpdate } from './incident-item.ts';
import { incidentRepository } from './incident-repository.ts';

const VIA_NAMES: Record<PageChannel, string> = { chat: 'chat', email: 'e-mail', sms: 'SMS', PUSH: 'push notification' };

const viaNote = (via: PageChannel | undefined): string => `through the ${VIA_NAMES[via ?? 'chat']} acknowledge link`;

/**
 * Acknowledges an incident that is still OPEN, as `scope.actor`, through a page's link on `via` (or as `note`
 * says: a sender's acknowledge of its signal): a write conditional on OPEN, so of two acknowledgements at once
 * one moves it, and the other (like one arriving after any other move) changes nothing. It is recorded as every status change is (history, thread message,
 * counters, SLA response), the history event saying through which page. Answers the incident as it is now
 * and whether this call acknowledged it.
 */
export const acknowledgeOpenIncident = async (
  scope: Scope,
  { incident, via, note = viaNote(via) }: { incident: Incident; via?: PageChannel; note?: string },
): Promise<{ incident: Incident; acknowledged: boolean }> => {
  const { ports, workspaceId, actor } = scope;
  const incidents = incidentRepository(ports.table, workspaceId);
  const update = incidentUpdate(
    workspaceId,
    incident.id,
    { status: 'ACKNOWLEDGED' },
    { now: ports.clock.now().toISOString(), actor },
  );
  if (via) update.set.acknowledgedVia = via;
  const written = await incidents.updateIncidentItem(incident.id, update, { field: 'status', equals: 'OPEN' });
  if (!written) {
    const now = await incidents.getIncident(incident.id);
    return { incident: now ?? incident, acknowledged: false };
  }
  const { before, after } = written;
  await recordIncidentChange(scope, before, after, {
    history: historyOfUpdate(before, after).map((event) => ({ ...event, message: note })),
    messages: messagesOfUpdate(before, after, actor).map((message) => ({
      ...message,
      text: `${message.text}, ${note}`,
    })),
  });
  return { incident: after, acknowledged: true };
};
