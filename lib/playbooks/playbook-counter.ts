import { counterDelta, filterCounts } from '#lib/store/counters.ts';
import { addToListCounter, type ListCounter, readListTotal, recountListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import type { PlaybookStatus } from './playbook.ts';

/**
 * PLAYBOOK_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>`, so the list's total and the stats'
 * totalPlaybooks are one GetItem. Kept by the repository after each head write.
 */
export const PLAYBOOK_COUNTER: ListCounter = { name: 'PLAYBOOKS', type: 'PLAYBOOK_COUNTER' };

type Counted = { status: PlaybookStatus };

const contribution = (playbook: Counted | undefined): Record<string, number> =>
  playbook ? filterCounts({ status: playbook.status }) : {};

/** Adds the change from `before` to `after` (undefined: did not exist / no longer exists). */
export const countPlaybookWrite = (
  table: Table,
  workspaceId: string,
  before: Counted | undefined,
  after: Counted | undefined,
): Promise<void> =>
  addToListCounter(table, workspaceId, PLAYBOOK_COUNTER, counterDelta(contribution(before), contribution(after)));

export const readPlaybookTotal = (table: Table, workspaceId: string, filter: Partial<Counted>): Promise<number> =>
  readListTotal(table, workspaceId, PLAYBOOK_COUNTER, filter);

/** The recount (data-model 6): the counter recomputed from the heads' statuses. */
export const recountPlaybooks = (table: Table, workspaceId: string, partition: string): Promise<number> =>
  recountListCounter(table, workspaceId, PLAYBOOK_COUNTER, {
    partition,
    attributes: ['status'],
    contribution: (item) => contribution(item as Counted),
  });
