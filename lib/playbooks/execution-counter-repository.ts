import { counterDelta, countersOf, filterCounts, sumCounts } from '#lib/store/counters.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { deleteItem, putItem } from '#lib/store/conditional-writes.ts';
import type { Item } from '#lib/store/items.ts';
import {
  addToListCounter,
  type ListCounter,
  listCounterKey,
  readCountersNamed,
  readListCounter,
  rewriteListCounter,
} from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import { playbookActionRepository } from './playbook-action-repository.ts';
import { type Execution, type ExecutionStatus, normalizeAction } from './execution.ts';

/**
 * Two kinds of counter follow every execution write (docs/data-model.md 5.9, 5.16), each the difference
 * between what the execution contributed before and after, so a delete subtracts what a create added:
 * - EXECUTION_COUNTER (`EXECUTIONS`): `total`, `status#<S>` for the list, and the stats' sums.
 * - PLAYBOOK_STATS (`PLAYBOOK#<playbookId>`), one per playbook: steps completed and skipped, ends, for patterns.
 * - PLAYBOOK_ACTION items, one per distinct ad-hoc action of a playbook (playbook-action-repository.ts).
 */
const EXECUTION_COUNTER: ListCounter = { name: 'EXECUTIONS', type: 'EXECUTION_COUNTER' };

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

const workspaceContribution = (execution: Execution | undefined): Record<string, number> => {
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
const playbookContribution = (execution: Execution | undefined): Record<string, number> => {
  if (!execution) return {};
  const counts: Record<string, number> = { [PLAYBOOK_STAT.executions]: 1, [`status#${execution.status}`]: 1 };
  for (const step of stepsWith(execution, 'COMPLETED'))
    add(counts, `${PLAYBOOK_STAT.stepCompleted}${textKey(step.title)}`);
  for (const step of stepsWith(execution, 'SKIPPED')) add(counts, `${PLAYBOOK_STAT.stepSkipped}${textKey(step.title)}`);
  return counts;
};

const PLAYBOOK_STATS_PREFIX = 'PLAYBOOK#';
const playbookCounterKey = (workspaceId: string, playbookId: string) =>
  listCounterKey(workspaceId, `${PLAYBOOK_STATS_PREFIX}${playbookId}`);

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

/** The execution counters of one workspace. */
export const executionCounterRepository = (table: Table, workspaceId: string) => {
  const actions = playbookActionRepository(table, workspaceId);
  const statsFields = (playbookId: string, playbookTitle: string) => ({
    type: 'PLAYBOOK_STATS',
    workspaceId,
    playbookId,
    playbookTitle,
  });

  /** Adds the change from `before` to `after` (undefined: did not exist) to every counter it touches. */
  const countExecutionWrite = async (before: Execution | undefined, after: Execution): Promise<void> => {
    const playbookDelta = counterDelta(playbookContribution(before), playbookContribution(after));
    await Promise.all([
      addToListCounter(
        table,
        workspaceId,
        EXECUTION_COUNTER,
        counterDelta(workspaceContribution(before), workspaceContribution(after)),
      ),
      Object.keys(playbookDelta).length > 0 &&
        addToCounters(
          table,
          playbookCounterKey(workspaceId, after.playbookId),
          playbookDelta,
          statsFields(after.playbookId, after.playbookTitle),
        ),
      actions.countActionWrite(before, after),
    ]);
  };

  /** Takes deleted executions out of the workspace counter and drops their playbook's counter. */
  const uncountPlaybookExecutions = async (playbookId: string, removed: readonly Execution[]): Promise<void> => {
    const delta = counterDelta(sumCounts(removed.map(workspaceContribution)), {});
    await addToListCounter(table, workspaceId, EXECUTION_COUNTER, delta);
    await deleteItem(table, playbookCounterKey(workspaceId, playbookId));
  };

  const readExecutionCounter = (): Promise<Record<string, number>> =>
    readListCounter(table, workspaceId, EXECUTION_COUNTER);

  const readExecutionTotal = async (status: ExecutionStatus | undefined): Promise<number> =>
    (await readExecutionCounter())[status ? `status#${status}` : 'total'] ?? 0;

  /** Every playbook's counter: one Query, bounded by the number of playbooks that ever ran. */
  const readAllPlaybookStats = async (): Promise<PlaybookStats[]> =>
    (await readCountersNamed(table, workspaceId, PLAYBOOK_STATS_PREFIX)).map(statsOf);

  /**
   * The recount (docs/data-model.md 6) from every execution of the workspace: the execution counter, and each
   * playbook's counter and action items; those of playbooks left without executions (a delete that crashed) go.
   */
  const rewriteExecutionCounters = async (executions: readonly Execution[]): Promise<void> => {
    await rewriteListCounter(table, workspaceId, EXECUTION_COUNTER, sumCounts(executions.map(workspaceContribution)));
    const byPlaybook = new Map<string, Execution[]>();
    for (const execution of executions) {
      byPlaybook.set(execution.playbookId, [...(byPlaybook.get(execution.playbookId) ?? []), execution]);
    }
    const stale = (await readAllPlaybookStats()).filter(({ playbookId }) => !byPlaybook.has(playbookId));
    await Promise.all([
      ...[...byPlaybook].map(([playbookId, runs]) =>
        putItem(table, {
          ...playbookCounterKey(workspaceId, playbookId),
          ...statsFields(playbookId, runs[runs.length - 1]?.playbookTitle ?? ''),
          ...sumCounts(runs.map(playbookContribution)),
        }),
      ),
      ...[...byPlaybook].map(([playbookId, runs]) => actions.rewritePlaybookActions(playbookId, runs)),
      ...stale.flatMap(({ playbookId }) => [
        deleteItem(table, playbookCounterKey(workspaceId, playbookId)),
        actions.rewritePlaybookActions(playbookId, []),
      ]),
    ]);
  };

  return {
    countExecutionWrite,
    uncountPlaybookExecutions,
    readExecutionCounter,
    readExecutionTotal,
    readAllPlaybookStats,
    rewriteExecutionCounters,
  };
};
