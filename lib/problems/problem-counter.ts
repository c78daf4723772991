import { counterDelta, filterCounts } from '#lib/store/counters.ts';
import { addToListCounter, readListTotal, recountListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import { TICKET_COUNTERS } from '#lib/tickets/ticket-counters.ts';
import type { Problem } from './problem.ts';

/**
 * PROBLEM_COUNTER (docs/data-model.md 5.16): `total` and one attribute per combination of status and
 * priority, so every problem list's total is one GetItem. Kept by the repository after each problem write.
 */
const PROBLEM_COUNTER = TICKET_COUNTERS.PROBLEM;

type Counted = Pick<Problem, 'status' | 'priority'>;

const contribution = (problem: Counted | undefined): Record<string, number> =>
  problem ? filterCounts({ status: problem.status, priority: problem.priority }) : {};

/** Adds the change from `before` to `after` (undefined: did not exist / no longer exists). */
export const countProblemWrite = (
  table: Table,
  workspaceId: string,
  before: Counted | undefined,
  after: Counted | undefined,
): Promise<void> =>
  addToListCounter(table, workspaceId, PROBLEM_COUNTER, counterDelta(contribution(before), contribution(after)));

export const readProblemTotal = (table: Table, workspaceId: string, filter: Partial<Counted>): Promise<number> =>
  readListTotal(table, workspaceId, PROBLEM_COUNTER, filter);

/** The recount (data-model 6): the counter recomputed from the problems' two counted attributes. */
export const recountProblems = (table: Table, workspaceId: string, partition: string): Promise<number> =>
  recountListCounter(table, workspaceId, PROBLEM_COUNTER, {
    partition,
    attributes: ['status', 'priority'],
    contribution: (item) => contribution(item as Counted),
  });
