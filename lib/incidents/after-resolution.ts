import type { Incident } from './incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { resolveWithIncident } from '#lib/signals/signal-service.ts';
import { signalIncidentRepository } from '#lib/signals/signal-incident-repository.ts';
import { recordMessages } from './message-repository.ts';
import { signalLinkRepository } from './signal-link-repository.ts';

/**
 * The incident's signals still OPEN or ACKNOWLEDGED are resolved with it (docs/decisions.md, "An incident's
 * open signals when it is resolved"), each with a note naming the incident, so the signals page does not keep
 * what people declared over. A later firing event of the same alert starts a new signal, which correlation
 * treats as new: an alert still firing after its incident was resolved is news. Both ways of ending an
 * incident run it: `POST /resolve/:id`, and `PUT /:id` moving it to RESOLVED or CLOSED.
 */
export const resolveOpenSignals = async (scope: Scope, incident: Incident): Promise<void> => {
  const { ports, workspaceId } = scope;
  const links = await signalLinkRepository(ports.table, workspaceId).listSignalLinks(incident.id);
  const signals = await signalIncidentRepository(ports.table, workspaceId).readSignals(
    links.map(({ signalId }) => signalId),
  );
  for (const signal of signals) {
    if (signal.status === 'OPEN' || signal.status === 'ACKNOWLEDGED') {
      await resolveWithIncident(scope, signal.id, `Resolved with incident ${incident.id}`);
    }
  }
};

/**
 * The post-resolution hooks the spec runs on `POST /resolve/:id`: the resolution note in the thread, and the
 * incident's open signals resolved with it.
 */
export const afterResolution = async (scope: Scope, incident: Incident): Promise<void> => {
  const { ports, workspaceId, actor } = scope;
  await recordMessages(ports, workspaceId, incident.id, [
    { kind: 'RESOLUTION', text: `Incident resolved by ${actor}`, actor },
  ]);
  await resolveOpenSignals(scope, incident);
};
