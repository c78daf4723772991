import { addToCounters, counterDelta, countersOf, filterCounts, sumCounts } from '#lib/store/counters.ts';
import { deleteItem } from '#lib/store/conditional-writes.ts';
import type { Item } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { addToListCounter, type ListCounter, readListCounter } from '#lib/store/list-counters.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { countActionWrite } from './action-counter.ts';
import { type Execution, type ExecutionStatus, normalizeAction } from './execution.ts';

/**
 * Two kinds of counter follow every execution write (docs/data-model.md 5.9, 5.16), each the difference
 * between what the execution contributed before and after, so a delete subtracts what a create added:
 * - EXECUTION_COUNTER (`EXECUTIONS`): `total`, `status#<S>` for the list, and the stats' sums.
 * - PLAYBOOK_STATS (`PLAYBOOK#<playbookId>`), one per playbook: steps completed and skipped, ends, for patterns.
 * - PLAYBOOK_ACTION items, one per distinct ad-hoc action of a playbook (action-counter.ts).
 */
export const EXECUTION_COUNTER: ListCounter = { name: 'EXECUTIONS', type: 'EXECUTION_COUNTER' };

/** Attribute names of the workspace counter beside the list's (`total`, `status#<S>`). */
export const STAT = {
  completionMsSum: 'completionMsSum',
  stepsCompleted: 'stepsCompleted',
  stepsSkipped: 'stepsSkipped',
} as const;

/** Attribute prefixes of a playbook's counter; the step title after them is normalized and URI-encoded. */
export const PLAYBOOK_STAT = {
  executions: 'executions',
  stepCompleted: 'stepCompleted#',
  stepSkipped: 'stepSkipped#',
} as const;

const textKey = (value: string): string => encodeURIComponent(normalizeAction(value));

const stepsWith = (execution: Execution, status: 'COMPLETED' | 'SKIPPED') =>
  execution.steps.filter((step) => step.status === status);

export const workspaceContribution = (execution: Execution | undefined): Record<string, number> => {
  if (!execution) return {};
  const counts: Record<string, number> = {
    ...filterCounts({ status: execution.status }),
    [STAT.stepsCompleted]: stepsWith(execution, 'COMPLETED').length,
    [STAT.stepsSkipped]: stepsWith(execution, 'SKIPPED').length,
  };
  if (execution.status === 'COMPLETED' && execution.completedAt) {
    counts[STAT.completionMsSum] = Date.parse(execution.completedAt) - Date.parse(execution.startedAt);
  }
  return counts;
};

const add = (counts: Record<string, number>, name: string, by = 1): void => {
  counts[name] = (counts[name] ?? 0) + by;
};

/** What one execution adds to its playbook's counter: bounded by the playbook's step titles. */
export const playbookContribution = (execution: Execution | undefined): Record<string, number> => {
  if (!execution) return {};
  const counts: Record<string, number> = { [PLAYBOOK_STAT.executions]: 1, [`status#${execution.status}`]: 1 };
  for (const step of stepsWith(execution, 'COMPLETED'))
    add(counts, `${PLAYBOOK_STAT.stepCompleted}${textKey(step.title)}`);
  for (const step of stepsWith(execution, 'SKIPPED')) add(counts, `${PLAYBOOK_STAT.stepSkipped}${textKey(step.title)}`);
  return counts;
};

export const playbookCounterKey = (workspaceId: string, playbookId: string) => ({
  pk: workspaceKey(workspaceId, 'COUNTER'),
  sk: `PLAYBOOK#${playbookId}`,
});

/** Adds the change from `before` to `after` (undefined: did not exist) to every counter it touches. */
export const countExecutionWrite = async (
  table: Table,
  workspaceId: string,
  before: Execution | undefined,
  after: Execution,
): Promise<void> => {
  const playbookDelta = counterDelta(playbookContribution(before), playbookContribution(after));
  await Promise.all([
    addToListCounter(
      table,
      workspaceId,
      EXECUTION_COUNTER,
      counterDelta(workspaceContribution(before), workspaceContribution(after)),
    ),
    Object.keys(playbookDelta).length > 0 &&
      addToCounters(table, playbookCounterKey(workspaceId, after.playbookId), playbookDelta, {
        type: 'PLAYBOOK_STATS',
        workspaceId,
        playbookId: after.playbookId,
        playbookTitle: after.playbookTitle,
      }),
    countActionWrite(table, workspaceId, before, after),
  ]);
};

/** Takes deleted executions out of the workspace counter and drops their playbook's counter. */
export const uncountPlaybookExecutions = async (
  table: Table,
  workspaceId: string,
  playbookId: string,
  removed: readonly Execution[],
): Promise<void> => {
  const delta = counterDelta(sumCounts(removed.map(workspaceContribution)), {});
  await addToListCounter(table, workspaceId, EXECUTION_COUNTER, delta);
  await deleteItem(table, playbookCounterKey(workspaceId, playbookId));
};

export const readExecutionCounter = (table: Table, workspaceId: string): Promise<Record<string, number>> =>
  readListCounter(table, workspaceId, EXECUTION_COUNTER);

export const readExecutionTotal = async (
  table: Table,
  workspaceId: string,
  status: ExecutionStatus | undefined,
): Promise<number> => (await readExecutionCounter(table, workspaceId))[status ? `status#${status}` : 'total'] ?? 0;

/** A playbook's counter as stored: its counts, and the title its latest execution ran under. */
export interface PlaybookStats {
  playbookId: string;
  playbookTitle: string;
  counts: Record<string, number>;
}

const statsOf = (item: Item): PlaybookStats => ({
  playbookId: item.playbookId as string,
  playbookTitle: item.playbookTitle as string,
  counts: countersOf(item),
});

/** Every playbook's counter: one Query, bounded by the number of playbooks that ever ran. */
export const readAllPlaybookStats = async (table: Table, workspaceId: string): Promise<PlaybookStats[]> =>
  (
    await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId, 'COUNTER'), ':prefix': 'PLAYBOOK#' },
    })
  ).map(statsOf);
