import type { Table } from '#lib/store/table.ts';
import { incidentChildToItem, listIncidentChildren, type IncidentChildKind } from './incident-child-repository.ts';
import { putNew } from '#lib/store/conditional-writes.ts';

/** Comments live in their incident's partition, sorted by ULID: chronological. */
const COMMENT: IncidentChildKind<IncidentComment> = {
  type: 'INCIDENT_COMMENT',
  sortPrefix: 'COMMENT#',
  placeOf: (comment) => ({ incidentId: comment.ticketId, id: comment.id }),
  fields: ['id', 'ticketId', 'content', 'authorEmail', 'createdAt'],
};

/** A comment on an incident (spec: Incident comment); `content` is Markdown. */
export interface IncidentComment {
  id: string;
  ticketId: string;
  content: string;
  /** The author's e-mail, or `api-key:<name>` when an API key wrote it. */
  authorEmail: string;
  createdAt: string;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const commentRepository = (table: Table, workspaceId: string) => {
  const putComment = async (comment: IncidentComment): Promise<void> => {
    await putNew(table, incidentChildToItem(COMMENT, workspaceId, comment));
  };

  /** Every comment of an incident, oldest first. */
  const listComments = (incidentId: string): Promise<IncidentComment[]> =>
    listIncidentChildren(COMMENT, table, workspaceId, incidentId);
  return { putComment, listComments };
};
