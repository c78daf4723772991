import type { Clock } from '#lib/ports/clock.ts';
import type { Ids } from '#lib/ports/ids.ts';
import type { Table } from '#lib/store/table.ts';
import { incidentChildPartition } from './incident-item.ts';
import { queryAll } from '#lib/store/queries.ts';
import { putNew } from '#lib/store/conditional-writes.ts';

/**
 * What a thread message reports: SYSTEM (created and other lifecycle notes), STATUS_CHANGE, ASSIGNMENT,
 * PRIORITY_CHANGE, RESOLUTION (the resolve action).
 */
export const MESSAGE_KINDS = ['SYSTEM', 'STATUS_CHANGE', 'ASSIGNMENT', 'PRIORITY_CHANGE', 'RESOLUTION'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

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

export const MESSAGE_SORT_PREFIX = 'MSG#';

/** Messages live in their incident's partition, sorted by ULID: chronological. */
export const messageItemKey = (workspaceId: string, message: Pick<IncidentMessage, 'id' | 'ticketId'>) => ({
  pk: incidentChildPartition(workspaceId, message.ticketId),
  sk: `${MESSAGE_SORT_PREFIX}${message.id}`,
});

export const messageToItem = (workspaceId: string, message: IncidentMessage): Record<string, unknown> => ({
  ...messageItemKey(workspaceId, message),
  type: 'INCIDENT_MESSAGE',
  workspaceId,
  ...message,
});

export const messageFromItem = (workspaceId: string, item: Record<string, unknown>): IncidentMessage => {
  if (item.workspaceId !== workspaceId) throw new Error('a message item of another workspace was read');
  return {
    id: item.id as string,
    ticketId: item.ticketId as string,
    kind: item.kind as MessageKind,
    text: item.text as string,
    actor: item.actor as string,
    createdAt: item.createdAt as string,
  };
};

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
  await Promise.all(messages.map((message) => putNew(table, messageToItem(workspaceId, message))));
  return messages;
};

/** The thread of an incident, oldest first. */
export const listMessages = async (
  table: Table,
  workspaceId: string,
  incidentId: string,
): Promise<IncidentMessage[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': incidentChildPartition(workspaceId, incidentId),
      ':prefix': MESSAGE_SORT_PREFIX,
    },
    ScanIndexForward: true,
  });
  return items.map((item) => messageFromItem(workspaceId, item));
};
