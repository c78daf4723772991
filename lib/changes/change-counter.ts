import { counterDelta, filterCounts } from '#lib/store/counters.ts';
import { addToListCounter, recountListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { ChangeStatus } from './change-input.ts';

/**
 * CHANGE_COUNTER (docs/data-model.md 5.16): `total` and `status#<S>` of the workspace's changes, for the
 * unified ticket list's totals. Kept by the repository after each change write.
 */
const CHANGE_COUNTER = TICKET_COUNTERS.CHANGE;

const contribution = (status: ChangeStatus | undefined): Record<string, number> =>
  status ? filterCounts({ status }) : {};

/** Adds a change's move from `before` to `after` (undefined: the change did not exist). */
export const countChangeWrite = (
  table: Table,
  workspaceId: string,
  before: ChangeStatus | undefined,
  after: ChangeStatus,
): Promise<void> =>
  addToListCounter(table, workspaceId, CHANGE_COUNTER, counterDelta(contribution(before), contribution(after)));

/** The recount (data-model 6): the counter recomputed from the changes' statuses. */
export const recountChanges = (table: Table, workspaceId: string, partition: string): Promise<number> =>
  recountListCounter(table, workspaceId, CHANGE_COUNTER, {
    partition,
    attributes: ['status'],
    contribution: (item) => contribution(item.status as ChangeStatus),
  });
