import type { IncidentComment } from './comment-repository.ts';
import { commentRepository } from './comment-repository.ts';
import { findIncident } from './get-incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { IncidentMessage } from './message-repository.ts';
import { messageRepository } from './message-repository.ts';

/** The comments of an incident, oldest first; 404 for an unknown incident rather than an empty list. */
export const incidentComments = async (scope: Scope, ticketId: string): Promise<IncidentComment[]> => {
  const [, comments] = await Promise.all([
    findIncident(scope, ticketId, 'ticketId'),
    commentRepository(scope.ports.table, scope.workspaceId).listComments(ticketId),
  ]);
  return comments;
};

/** The message thread of an incident, oldest first; 404 for an unknown incident. */
export const incidentMessages = async (scope: Scope, ticketId: string): Promise<IncidentMessage[]> => {
  const [, messages] = await Promise.all([
    findIncident(scope, ticketId, 'ticketId'),
    messageRepository(scope.ports.table, scope.workspaceId).listMessages(ticketId),
  ]);
  return messages;
};
