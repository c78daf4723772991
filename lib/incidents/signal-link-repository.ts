import { deleteItem, putIfAbsent } from '#lib/store/conditional-writes.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { incidentChildPartition } from './incident-item.ts';

/** INCIDENT_SIGNAL_LINK: a signal of an incident, in the incident's own partition (deleted with it). */
export interface SignalLink {
  incidentId: string;
  signalId: string;
  /** The correlation rule that linked it. */
  ruleId: string;
  linkedAt: string;
}

const SIGNAL_LINK_SORT_PREFIX = 'SIGNAL#';

const signalLinkItemKey = (workspaceId: string, incidentId: string, signalId: string) => ({
  pk: incidentChildPartition(workspaceId, incidentId),
  sk: `${SIGNAL_LINK_SORT_PREFIX}${signalId}`,
});

const signalLinkToItem = (workspaceId: string, link: SignalLink): Record<string, unknown> => ({
  ...signalLinkItemKey(workspaceId, link.incidentId, link.signalId),
  type: 'INCIDENT_SIGNAL_LINK',
  workspaceId,
  ...link,
});

const signalLinkFromItem = (workspaceId: string, item: Record<string, unknown>): SignalLink => {
  if (item.workspaceId !== workspaceId) throw new Error('a signal link of another workspace was read');
  return {
    incidentId: item.incidentId as string,
    signalId: item.signalId as string,
    ruleId: item.ruleId as string,
    linkedAt: item.linkedAt as string,
  };
};

/** Stores the link; false when it already exists (a repeated delivery), so its side effects run once. */
export const insertSignalLink = (table: Table, workspaceId: string, link: SignalLink): Promise<boolean> =>
  putIfAbsent(table, signalLinkToItem(workspaceId, link));

export const deleteSignalLink = async (
  table: Table,
  workspaceId: string,
  incidentId: string,
  signalId: string,
): Promise<void> => {
  await deleteItem(table, signalLinkItemKey(workspaceId, incidentId, signalId));
};
/** The links of an incident, by signal id: the order signals were received in. */
export const listSignalLinks = async (table: Table, workspaceId: string, incidentId: string): Promise<SignalLink[]> => {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': incidentChildPartition(workspaceId, incidentId),
      ':prefix': SIGNAL_LINK_SORT_PREFIX,
    },
  });
  return items.map((item) => signalLinkFromItem(workspaceId, item));
};
