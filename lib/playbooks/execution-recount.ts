import { sumCounts } from '#lib/store/counters.ts';
import { deleteItem, putItem } from '#lib/store/conditional-writes.ts';
import { rewriteListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import { rewritePlaybookActions } from './action-counter.ts';
import type { Execution } from './execution.ts';
import {
  EXECUTION_COUNTER,
  playbookContribution,
  playbookCounterKey,
  readAllPlaybookStats,
  workspaceContribution,
} from './execution-counter.ts';
import { executionRepository } from './execution-repository.ts';

/**
 * The recount (docs/data-model.md 6) of the execution counter and of every playbook's counter and action
 * items, from the executions themselves; those left without executions (a delete that crashed) go.
 */
export const recountExecutions = async (table: Table, workspaceId: string): Promise<number> => {
  const executions = await executionRepository(table, workspaceId).allExecutions();
  await rewriteListCounter(table, workspaceId, EXECUTION_COUNTER, sumCounts(executions.map(workspaceContribution)));
  const byPlaybook = new Map<string, Execution[]>();
  for (const execution of executions) {
    byPlaybook.set(execution.playbookId, [...(byPlaybook.get(execution.playbookId) ?? []), execution]);
  }
  const stale = (await readAllPlaybookStats(table, workspaceId)).filter(
    ({ playbookId }) => !byPlaybook.has(playbookId),
  );
  await Promise.all([
    ...[...byPlaybook].map(([playbookId, runs]) =>
      putItem(table, {
        ...playbookCounterKey(workspaceId, playbookId),
        type: 'PLAYBOOK_STATS',
        workspaceId,
        playbookId,
        playbookTitle: runs[runs.length - 1]?.playbookTitle,
        ...sumCounts(runs.map(playbookContribution)),
      }),
    ),
    ...[...byPlaybook].map(([playbookId, runs]) => rewritePlaybookActions(table, workspaceId, playbookId, runs)),
    ...stale.flatMap(({ playbookId }) => [
      deleteItem(table, playbookCounterKey(workspaceId, playbookId)),
      rewritePlaybookActions(table, workspaceId, playbookId, []),
    ]),
  ]);
  return executions.length;
};
