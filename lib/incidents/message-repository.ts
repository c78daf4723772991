import type { Clock } from '#lib/ports/clock.ts';
import type { Ids } from '#lib/ports/ids.ts';
import type { Table } from '#lib/store/table.ts';
import { incidentChildToItem, listIncidentChildren, type IncidentChildKind } from './incident-child-repository.ts';
import { putIfAbsent, putNew } from '#lib/store/conditional-writes.ts';
import type { MessageKind } from './incident.ts';

/** Messages live in their incident's partition, sorted by ULID: chronological. */
const MESSAGE: IncidentChildKind<IncidentMessage> = {
  type: 'INCIDENT_MESSAGE',
  sortPrefix: 'MSG#',
  placeOf: (message) => ({ incidentId: message.ticketId, id: message.id }),
  fields: ['id', 'ticketId', 'kind', 'text', 'actor', 'createdAt'],
};

/** A message of an incident's thread: written by the service, never by a client. */
export interface IncidentMessage {
  id: string;
  ticketId: string;
  kind: MessageKind;
  text: string;
  /** Who caused it: an e-mail, `api-key:<name>` or `system`. */
  actor: string;
  createdAt: string;
}

export type MessageInput = Pick<IncidentMessage, 'kind' | 'text' | 'actor'>;

/**
 * Adds messages to an incident's thread. Messages of one call share a time and get increasing ids
 * (monotonic ULIDs), so the thread shows them in the order given.
 */
export const recordMessages = async (
  { table, clock, ids }: { table: Table; clock: Clock; ids: Ids },
  workspaceId: string,
  incidentId: string,
  inputs: readonly MessageInput[],
): Promise<IncidentMessage[]> => {
  const createdAt = clock.now().toISOString();
  const messages = inputs.map(
    (input): IncidentMessage => ({ id: ids.sortable(), ticketId: incidentId, ...input, createdAt }),
  );
  await Promise.all(messages.map((message) => putNew(table, incidentChildToItem(MESSAGE, workspaceId, message))));
  return messages;
};

/**
 * Adds a message whose id and time the caller chose before (a worker that may run again): a second
 * call with the same message writes nothing. False when it was already there.
 */
export const recordMessageOnce = (table: Table, workspaceId: string, message: IncidentMessage): Promise<boolean> =>
  putIfAbsent(table, incidentChildToItem(MESSAGE, workspaceId, message));

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const messageRepository = (table: Table, workspaceId: string) => {
  /** The incident's thread, oldest first. */
  const listMessages = (incidentId: string): Promise<IncidentMessage[]> =>
    listIncidentChildren(MESSAGE, table, workspaceId, incidentId);
  return { listMessages };
};
