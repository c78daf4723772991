import { recordHistory } from '#lib/tickets/history-repository.ts';
import type { IncidentComment } from './comment-repository.ts';
import { commentRepository } from './comment-repository.ts';
import { findIncident } from './get-incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { AddCommentInput } from './schemas.ts';

/** Adds a Markdown comment by the caller, and a COMMENT_ADDED history event carrying its text. */
export const addComment = async (scope: Scope, { ticketId, content }: AddCommentInput): Promise<IncidentComment> => {
  const { ports, workspaceId, actor } = scope;
  const incident = await findIncident(scope, ticketId, 'ticketId');
  const comment: IncidentComment = {
    id: ports.ids.sortable(),
    ticketId: incident.id,
    content,
    authorEmail: actor,
    createdAt: ports.clock.now().toISOString(),
  };
  await commentRepository(ports.table, workspaceId).putComment(comment);
  await recordHistory(ports, workspaceId, [
    { ticketId: incident.id, ticketType: 'INCIDENT', event: 'COMMENT_ADDED', actor, message: content },
  ]);
  return comment;
};
