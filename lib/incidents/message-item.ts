import { incidentChildPartition } from './incident-item.ts';

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
