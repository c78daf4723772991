import { batchDeleteItems, batchPutItems } from '#lib/store/batch.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Key } from '#lib/store/items.ts';
import type { Table } from '#lib/store/table.ts';

export type SlaTarget = 'RESPONSE' | 'RESOLVE';

/**
 * SLA_DEADLINE items (docs/data-model.md 5.10): one per pending target of a governed incident, sorted by
 * the deadline, so the sweep reads only the deadlines that passed. Deleted once the target is decided.
 */
const deadlinePartition = (workspaceId: string): string => workspaceKey(workspaceId, 'SLADUE');

export interface SlaDeadline {
  incidentId: string;
  target: SlaTarget;
  dueAt: string;
}

const deadlineKey = (workspaceId: string, { incidentId, target, dueAt }: SlaDeadline): Key => ({
  pk: deadlinePartition(workspaceId),
  sk: `${dueAt}#${incidentId}#${target}`,
});

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const slaDeadlineRepository = (table: Table, workspaceId: string) => {
  const putDeadlines = (deadlines: readonly SlaDeadline[]): Promise<void> =>
    batchPutItems(
      table,
      deadlines.map((deadline) => ({
        ...deadlineKey(workspaceId, deadline),
        type: 'SLA_DEADLINE',
        workspaceId,
        ...deadline,
      })),
    );

  const removeDeadlines = (deadlines: readonly SlaDeadline[]): Promise<void> =>
    batchDeleteItems(
      table,
      deadlines.map((deadline) => deadlineKey(workspaceId, deadline)),
    );

  /** The deadlines strictly before `now`, earliest first: `<dueAt>#...` sorts before `<now>` only then. */
  const passedDeadlines = async (now: string): Promise<SlaDeadline[]> => {
    const items = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND sk < :now',
      ExpressionAttributeValues: { ':pk': deadlinePartition(workspaceId), ':now': now },
    });
    return items.map((item) => ({
      incidentId: item.incidentId as string,
      target: item.target as SlaTarget,
      dueAt: item.dueAt as string,
    }));
  };
  return { putDeadlines, removeDeadlines, passedDeadlines };
};
