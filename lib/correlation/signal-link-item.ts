import { incidentChildPartition } from '#lib/incidents/incident-item.ts';

/** INCIDENT_SIGNAL_LINK: a signal of an incident, in the incident's own partition (deleted with it). */
export interface SignalLink {
  incidentId: string;
  signalId: string;
  /** The correlation rule that linked it. */
  ruleId: string;
  linkedAt: string;
}

export const SIGNAL_LINK_SORT_PREFIX = 'SIGNAL#';

export const signalLinkItemKey = (workspaceId: string, incidentId: string, signalId: string) => ({
  pk: incidentChildPartition(workspaceId, incidentId),
  sk: `${SIGNAL_LINK_SORT_PREFIX}${signalId}`,
});

export const signalLinkToItem = (workspaceId: string, link: SignalLink): Record<string, unknown> => ({
  ...signalLinkItemKey(workspaceId, link.incidentId, link.signalId),
  type: 'INCIDENT_SIGNAL_LINK',
  workspaceId,
  ...link,
});

export const signalLinkFromItem = (workspaceId: string, item: Record<string, unknown>): SignalLink => {
  if (item.workspaceId !== workspaceId) throw new Error('a signal link of another workspace was read');
  return {
    incidentId: item.incidentId as string,
    signalId: item.signalId as string,
    ruleId: item.ruleId as string,
    linkedAt: item.linkedAt as string,
  };
};
