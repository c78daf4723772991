import type { Table } from '#lib/store/table.ts';
import { incidentChildPartition } from './incident-item.ts';
import { queryAll } from '#lib/store/queries.ts';
import { putNew } from '#lib/store/conditional-writes.ts';

/** A comment on an incident (spec: Incident comment); `content` is Markdown. */
export interface IncidentComment {
  id: string;
  ticketId: string;
  content: string;
  /** The author's e-mail, or `api-key:<name>` when an API key wrote it. */
  authorEmail: string;
  createdAt: string;
}

export const COMMENT_SORT_PREFIX = 'COMMENT#';

/** Comments live in their incident's partition, sorted by ULID: chronological. */
export const commentItemKey = (workspaceId: string, comment: Pick<IncidentComment, 'id' | 'ticketId'>) => ({
  pk: incidentChildPartition(workspaceId, comment.ticketId),
  sk: `${COMMENT_SORT_PREFIX}${comment.id}`,
});

export const commentToItem = (workspaceId: string, comment: IncidentComment): Record<string, unknown> => ({
  ...commentItemKey(workspaceId, comment),
  type: 'INCIDENT_COMMENT',
  workspaceId,
  ...comment,
});

export const commentFromItem = (workspaceId: string, item: Record<string, unknown>): IncidentComment => {
  if (item.workspaceId !== workspaceId) throw new Error('a comment item of another workspace was read');
  return {
    id: item.id as string,
    ticketId: item.ticketId as string,
    content: item.content as string,
    authorEmail: item.authorEmail as string,
    createdAt: item.createdAt as string,
  };
};

export const putComment = async (table: Table, workspaceId: string, comment: IncidentComment): Promise<void> => {
  await putNew(table, commentToItem(workspaceId, comment));
};

/** Every comment of an incident, oldest first. */
export const listComments = async (
  table: Table,
  workspaceId: string,
  incidentId: string,
): Promise<IncidentComment[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': incidentChildPartition(workspaceId, incidentId),
      ':prefix': COMMENT_SORT_PREFIX,
    },
    ScanIndexForward: true,
  });
  return items.map((item) => commentFromItem(workspaceId, item));
};
