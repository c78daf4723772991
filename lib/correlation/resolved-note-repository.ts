import {
  incidentChildKey,
  incidentChildToItem,
  type IncidentChildKind,
} from '#lib/incidents/incident-child-repository.ts';
import { putIfAbsent } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';
import type { Table } from '#lib/store/table.ts';

/**
 * INCIDENT_SIGNALS_RESOLVED (docs/data-model.md 5.7): the claim that the thread message saying every
 * linked signal resolved is written once per set of signals. It holds the message's id and time, chosen
 * by the delivery that claimed it, so a redelivery writes that same message (or finds it written) and
 * never a second one. Keyed by the number of linked signals: a signal linked later, once resolved too,
 * is another set and gets its own message.
 */
export interface ResolvedNote {
  incidentId: string;
  signals: number;
  messageId: string;
  createdAt: string;
}

const RESOLVED_NOTE: IncidentChildKind<ResolvedNote> = {
  type: 'INCIDENT_SIGNALS_RESOLVED',
  sortPrefix: 'SIGNALS_RESOLVED#',
  placeOf: (note) => ({ incidentId: note.incidentId, id: String(note.signals) }),
  fields: ['incidentId', 'signals', 'messageId', 'createdAt'],
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const resolvedNoteRepository = (table: Table, workspaceId: string) => {
  /** The note as first claimed: `note` when this call claimed it, else the earlier delivery's. */
  const claimResolvedNote = async (note: ResolvedNote): Promise<ResolvedNote> => {
    if (await putIfAbsent(table, incidentChildToItem(RESOLVED_NOTE, workspaceId, note))) return note;
    const item = await getItem(
      table,
      incidentChildKey(RESOLVED_NOTE, workspaceId, note.incidentId, String(note.signals)),
    );
    return item ? { ...note, messageId: item.messageId as string, createdAt: item.createdAt as string } : note;
  };
  return { claimResolvedNote };
};
