import { putItem } from '#lib/store/conditional-writes.ts';
import type { Table } from '#lib/store/table.ts';
import { incidentChildToItem, type IncidentChildKind } from './incident-child-repository.ts';

/** A customer knowledge-base article drafted when the incident was resolved (spec: resolve with customer KB). */
export interface KbDraft {
  incidentId: string;
  title: string;
  content: string;
  status: 'DRAFT';
  generatedAt: string;
}

/** INCIDENT_KB_DRAFT (`{W}#INC#<incidentId>` / `KB`): one per incident, in its partition, so deleted with it. */
const KB_DRAFT: IncidentChildKind<KbDraft> = {
  type: 'INCIDENT_KB_DRAFT',
  sortPrefix: 'KB',
  placeOf: (draft) => ({ incidentId: draft.incidentId, id: '' }),
  fields: ['incidentId', 'title', 'content', 'status', 'generatedAt'],
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const kbDraftRepository = (table: Table, workspaceId: string) => {
  /** The latest draft replaces an earlier one (an incident reopened and resolved again). */
  const putKbDraft = async (draft: KbDraft): Promise<void> => {
    await putItem(table, incidentChildToItem(KB_DRAFT, workspaceId, draft));
  };
  return { putKbDraft };
};
