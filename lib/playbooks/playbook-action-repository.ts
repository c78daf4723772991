import { batchDeleteItems } from '#lib/store/batch.ts';
import { putItem } from '#lib/store/conditional-writes.ts';
import { counterDelta, countersOf, sumCounts } from '#lib/store/counters.ts';
import { addToCounters } from '#lib/store/add-to-counters.ts';
import { type Item, keyOf } from '#lib/store/items.ts';
import { queryAll } from '#lib/store/queries.ts';
import type { Table } from '#lib/store/table.ts';
import { type Execution, normalizeAction } from './execution.ts';
import { playbookPartition } from './playbook-repository.ts';

/**
 * PLAYBOOK_ACTION items (docs/data-model.md 5.9): one per distinct ad-hoc action of a playbook, in the
 * playbook's own partition `{W}#PLAYBOOK#<playbookId>` / `ACTION#<action>`, so a playbook's counter does not
 * grow with every new wording its executions record, and deleting the playbook's partition removes them.
 * Attributes: `executions` (that recorded it at least once: recurrence) and `at#<stepIndex>` (recordings
 * while that step was current: suggestions).
 */
export const ACTION_EXECUTIONS = 'executions';
export const atStep = (index: number): string => `at#${index}`;

const actionKey = (workspaceId: string, playbookId: string, key: string) => ({
  pk: playbookPartition(workspaceId, playbookId),
  sk: `ACTION#${key}`,
});

/** Actions compare normalized; the form is URI-encoded in the key, so no `#` splits it. */
const keyOfAction = (description: string): string => encodeURIComponent(normalizeAction(description));

/** What an execution adds to each of its actions' counts, by action key. */
export const actionContributions = (execution: Execution | undefined): Map<string, Record<string, number>> => {
  const byAction = new Map<string, Record<string, number>>();
  for (const { description, stepIndex } of execution?.actions ?? []) {
    const key = keyOfAction(description);
    const counts = byAction.get(key) ?? { [ACTION_EXECUTIONS]: 1 };
    counts[atStep(stepIndex)] = (counts[atStep(stepIndex)] ?? 0) + 1;
    byAction.set(key, counts);
  }
  return byAction;
};

const actionFields = (workspaceId: string, playbookId: string, key: string) => ({
  type: 'PLAYBOOK_ACTION',
  workspaceId,
  playbookId,
  action: decodeURIComponent(key),
});

export interface ActionCounts {
  key: string;
  action: string;
  counts: Record<string, number>;
}

/** The PLAYBOOK_ACTION items of one workspace's playbooks. */
export const playbookActionRepository = (table: Table, workspaceId: string) => {
  /** Adds the change from `before` to `after` to each action it touches: one write per action changed. */
  const countActionWrite = async (before: Execution | undefined, after: Execution): Promise<void> => {
    const [old, now] = [actionContributions(before), actionContributions(after)];
    await Promise.all(
      [...new Set([...old.keys(), ...now.keys()])].map((key) => {
        const delta = counterDelta(old.get(key) ?? {}, now.get(key) ?? {});
        if (Object.keys(delta).length === 0) return undefined;
        const fields = actionFields(workspaceId, after.playbookId, key);
        return addToCounters(table, actionKey(workspaceId, after.playbookId, key), delta, fields);
      }),
    );
  };

  const actionItems = (playbookId: string): Promise<Item[]> =>
    queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': playbookPartition(workspaceId, playbookId), ':prefix': 'ACTION#' },
    });

  /** Every action a playbook's executions recorded: one Query of its partition. */
  const readPlaybookActions = async (playbookId: string): Promise<ActionCounts[]> =>
    (await actionItems(playbookId)).map((item) => ({
      key: String(item.sk).slice('ACTION#'.length),
      action: item.action as string,
      counts: countersOf(item),
    }));

  /** The recount of a playbook's action items from its executions; items no execution backs any more go. */
  const rewritePlaybookActions = async (playbookId: string, executions: readonly Execution[]): Promise<void> => {
    const byAction = new Map<string, Record<string, number>[]>();
    for (const execution of executions) {
      for (const [key, counts] of actionContributions(execution))
        byAction.set(key, [...(byAction.get(key) ?? []), counts]);
    }
    const stale = (await actionItems(playbookId)).filter(
      (item) => !byAction.has(String(item.sk).slice('ACTION#'.length)),
    );
    await Promise.all([
      ...[...byAction].map(([key, contributions]) =>
        putItem(table, {
          ...actionKey(workspaceId, playbookId, key),
          ...actionFields(workspaceId, playbookId, key),
          ...sumCounts(contributions),
        }),
      ),
      batchDeleteItems(table, stale.map(keyOf)),
    ]);
  };
  return { countActionWrite, readPlaybookActions, rewritePlaybookActions };
};
