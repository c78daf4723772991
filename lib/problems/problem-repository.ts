import type { IncidentPriority } from '#lib/incidents/incident.ts';
import { assertOfWorkspace, storedFields, textsOrNull } from '#lib/store/item-values.ts';
import type { QueryInput } from '#lib/store/queries.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import { OPTIONAL_PROBLEM_FIELDS, type Problem, type ProblemChanges, type ProblemStatus } from './problem.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { ticketIndexKeys } from '#lib/tickets/ticket-item.ts';
import { setFields } from '#lib/store/set-fields.ts';
import { deleteIfPresent, putNew, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { countListWrite, readCountedTotal } from '#lib/store/list-counters.ts';
import { PROBLEM_COUNTER } from './problem-counter.ts';

/** PROBLEM items (docs/data-model.md 5.5): base `{W}#PROBLEM`, gsi1 by status, gsi2 by priority, gsi3 tickets. */
export const problemPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'PROBLEM');

const problemStatusPartition = (workspaceId: string, status: ProblemStatus): string =>
  workspaceKey(workspaceId, 'PROBLEM', 'STATUS', status);

const problemPriorityPartition = (workspaceId: string, priority: IncidentPriority): string =>
  workspaceKey(workspaceId, 'PROBLEM', 'PRIORITY', priority);

const problemItemKey = (workspaceId: string, problemId: string) => ({
  pk: problemPartition(workspaceId),
  sk: problemId,
});

/** The gsi1 attributes for a status; an update that changes the status SETs them too. */
const problemStatusKeys = (workspaceId: string, problem: Pick<Problem, 'id' | 'status'>) => ({
  gsi1pk: problemStatusPartition(workspaceId, problem.status),
  gsi1sk: problem.id,
});

/** The gsi2 attributes for a priority; an update that changes the priority SETs them too. */
const problemPriorityKeys = (workspaceId: string, problem: Pick<Problem, 'id' | 'priority'>) => ({
  gsi2pk: problemPriorityPartition(workspaceId, problem.priority),
  gsi2sk: problem.id,
});

const problemIndexKeys = (workspaceId: string, problem: Problem) => ({
  ...problemStatusKeys(workspaceId, problem),
  ...problemPriorityKeys(workspaceId, problem),
  ...ticketIndexKeys(workspaceId, problem),
});

/** Item `type` PROBLEM is also the unified ticket type; unset optional fields are left out of the item. */
export const problemToItem = (workspaceId: string, problem: Problem): Record<string, unknown> => {
  const item: Record<string, unknown> = {
    ...problemItemKey(workspaceId, problem.id),
    ...problemIndexKeys(workspaceId, problem),
    type: 'PROBLEM',
    workspaceId,
    ...problem,
  };
  for (const field of OPTIONAL_PROBLEM_FIELDS) if (item[field] === null) delete item[field];
  return item;
};

const problemFromItem = (item: Record<string, unknown>, workspaceId: string): Problem => {
  assertOfWorkspace(item, workspaceId, `problem ${String(item.id)}`);
  return {
    ...storedFields<Problem>()(item, ['id', 'title', 'description', 'priority', 'status', 'createdAt', 'updatedAt']),
    ...textsOrNull(item, ['rootCause', 'workaround', 'serviceArea', 'assignedToEmail']),
    relatedIncidentIds: (item.relatedIncidentIds as string[] | undefined) ?? [],
  };
};

export interface ProblemFilter {
  status?: ProblemStatus;
  priority?: IncidentPriority;
}

/** The partition of the most selective filter (status, then priority, then all), the other as a filter. */
const listQuery = (workspaceId: string, { status, priority }: ProblemFilter): QueryInput => {
  if (status) {
    return {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ...(priority && {
        FilterExpression: '#priority = :priority',
        ExpressionAttributeNames: { '#priority': 'priority' },
      }),
      ExpressionAttributeValues: {
        ':pk': problemStatusPartition(workspaceId, status),
        ...(priority && { ':priority': priority }),
      },
    };
  }
  if (priority) {
    return {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': problemPriorityPartition(workspaceId, priority) },
    };
  }
  return { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': problemPartition(workspaceId) } };
};

/** `SET` the given values and the index keys they move, `REMOVE` the optional fields set to null. */
const updateExpression = (workspaceId: string, problemId: string, changes: ProblemChanges, updatedAt: string) => {
  const values = Object.entries(changes).filter(([, value]) => value !== null);
  const cleared = Object.entries(changes)
    .filter(([, value]) => value === null)
    .map(([field]) => field);
  const set = setFields({
    ...Object.fromEntries(values),
    ...(changes.status && problemStatusKeys(workspaceId, { id: problemId, status: changes.status })),
    ...(changes.priority && problemPriorityKeys(workspaceId, { id: problemId, priority: changes.priority })),
    updatedAt,
  });
  if (cleared.length === 0) return set;
  return {
    UpdateExpression: `${set.UpdateExpression} REMOVE ${cleared.map((_field, index) => `#r${index}`).join(', ')}`,
    ExpressionAttributeNames: {
      ...set.ExpressionAttributeNames,
      ...Object.fromEntries(cleared.map((field, index) => [`#r${index}`, field])),
    },
    ExpressionAttributeValues: set.ExpressionAttributeValues,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const problemRepository = (table: Table, workspaceId: string) => {
  const insertProblem = async (problem: Problem): Promise<void> => {
    await putNew(table, problemToItem(workspaceId, problem));
    await countListWrite(table, workspaceId, PROBLEM_COUNTER, undefined, problem);
  };

  const findProblem = (problemId: string): Promise<Problem | undefined> =>
    findItem(table, problemItemKey(workspaceId, problemId), (item) => problemFromItem(item, workspaceId));

  /** Newest first: problem ids are ULIDs, and every index of the list sorts by id. The total is the counter's. */
  const queryProblems = async (filter: ProblemFilter, page: PageRequest): Promise<Page<Problem>> => {
    return queryPage(
      table,
      { ...listQuery(workspaceId, filter), ScanIndexForward: false },
      page,
      (item) => problemFromItem(item, workspaceId),
      () => readCountedTotal(table, workspaceId, PROBLEM_COUNTER, filter),
    );
  };

  /**
   * Applies the changes to an existing problem and returns it before and after, so the caller can record
   * what changed; undefined if there is no such problem.
   */
  const writeProblemChanges = async (
    problemId: string,
    changes: ProblemChanges,
    updatedAt: string,
  ): Promise<{ before: Problem; after: Problem } | undefined> => {
    const old = await updateIfPresent(
      table,
      problemItemKey(workspaceId, problemId),
      updateExpression(workspaceId, problemId, changes, updatedAt),
      'ALL_OLD',
    );
    if (!old) return undefined;
    const before = problemFromItem(old, workspaceId);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const after = { ...before, ...defined, updatedAt };
    await countListWrite(table, workspaceId, PROBLEM_COUNTER, before, after);
    return { before, after };
  };

  /** Deletes a problem and returns it as it was; undefined if there was none. */
  const removeProblem = async (problemId: string): Promise<Problem | undefined> => {
    const item = await deleteIfPresent(table, problemItemKey(workspaceId, problemId));
    if (!item) return undefined;
    const removed = problemFromItem(item, workspaceId);
    await countListWrite(table, workspaceId, PROBLEM_COUNTER, removed, undefined);
    return removed;
  };
  return { insertProblem, findProblem, queryProblems, writeProblemChanges, removeProblem };
};
