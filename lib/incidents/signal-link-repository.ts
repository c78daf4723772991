import { deleteItem, putIfAbsent } from '#lib/store/conditional-writes.ts';
import type { Table } from '#lib/store/table.ts';
import {
  incidentChildKey,
  incidentChildToItem,
  listIncidentChildren,
  type IncidentChildKind,
} from './incident-child-repository.ts';

/** By signal id: the order signals were received in. */
const SIGNAL_LINK: IncidentChildKind<SignalLink> = {
  type: 'INCIDENT_SIGNAL_LINK',
  sortPrefix: 'SIGNAL#',
  placeOf: (link) => ({ incidentId: link.incidentId, id: link.signalId }),
  fields: ['incidentId', 'signalId', 'ruleId', 'linkedAt'],
};

/** INCIDENT_SIGNAL_LINK: a signal of an incident, in the incident's own partition (deleted with it). */
export interface SignalLink {
  incidentId: string;
  signalId: string;
  /** The correlation rule that linked it. */
  ruleId: string;
  linkedAt: string;
}

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const signalLinkRepository = (table: Table, workspaceId: string) => {
  /** Stores the link; false when it already exists (a repeated delivery), so its side effects run once. */
  const insertSignalLink = (link: SignalLink): Promise<boolean> =>
    putIfAbsent(table, incidentChildToItem(SIGNAL_LINK, workspaceId, link));

  const deleteSignalLink = async (incidentId: string, signalId: string): Promise<void> => {
    await deleteItem(table, incidentChildKey(SIGNAL_LINK, workspaceId, incidentId, signalId));
  };

  /** The links of an incident, by signal id. */
  const listSignalLinks = (incidentId: string): Promise<SignalLink[]> =>
    listIncidentChildren(SIGNAL_LINK, table, workspaceId, incidentId);
  return { insertSignalLink, deleteSignalLink, listSignalLinks };
};
