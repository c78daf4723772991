import { counterDelta, filterCounts } from '#lib/store/counters.ts';
import { addToListCounter, readListTotal, recountListCounter } from '#lib/store/list-counters.ts';
import type { Table } from '#lib/store/table.ts';
import type { Item } from '#lib/store/items.ts';

/**
 * RUN_COUNTER (docs/data-model.md 5.16): `total` and one attribute per combination of status, provider,
 * repository and branch, so every run list's total is one GetItem. The repository is its `repositoryKey`;
 * the branch is URI-encoded but not normalised, since the list matches it exactly; so `#` and `|` never
 * occur in a value.
 */
export const RUN_COUNTER = { name: 'RUNS', type: 'RUN_COUNTER' };

const branchKey = (branch: string | null | undefined): string | undefined =>
  typeof branch === 'string' ? encodeURIComponent(branch) : undefined;

/** The list filters of a run as its item holds them. */
export interface RunCounted {
  status?: string;
  provider?: string;
  repositoryKey?: string;
  branch?: string | null;
}

const contribution = (run: RunCounted | undefined): Record<string, number> =>
  run
    ? filterCounts({
        status: run.status,
        provider: run.provider,
        repository: run.repositoryKey,
        branch: branchKey(run.branch),
      })
    : {};

/** Adds a run's write from the item it replaced (undefined: a new run) to the item as written. */
export const countRunWrite = (
  table: Table,
  workspaceId: string,
  before: Item | undefined,
  after: Item,
): Promise<void> =>
  addToListCounter(
    table,
    workspaceId,
    RUN_COUNTER,
    counterDelta(contribution(before as RunCounted | undefined), contribution(after as RunCounted)),
  );

export const readRunTotal = (table: Table, workspaceId: string, filter: RunCounted): Promise<number> =>
  readListTotal(table, workspaceId, RUN_COUNTER, {
    status: filter.status,
    provider: filter.provider,
    repository: filter.repositoryKey,
    branch: branchKey(filter.branch),
  });

/** The recount (data-model 6): the counter recomputed from the runs' counted attributes. */
export const recountRuns = (table: Table, workspaceId: string, partition: string): Promise<number> =>
  recountListCounter(table, workspaceId, RUN_COUNTER, {
    partition,
    attributes: ['status', 'provider', 'repositoryKey', 'branch'],
    contribution: contribution,
  });
