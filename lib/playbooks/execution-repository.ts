import { batchDeleteItems } from '#lib/store/batch.ts';
import { putIf, putNew } from '#lib/store/conditional-writes.ts';
import { findItem, type Item, keyOf } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { type QueryInput, queryAll } from '#lib/store/queries.ts';
import { type Page, type PageRequest, queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import type { Execution, ExecutionStatus } from './execution.ts';
import { playbookPartition } from './playbook-repository.ts';
import { executionCounterRepository } from './execution-counter-repository.ts';

/**
 * EXECUTION items (docs/data-model.md 5.9): base `{W}#EXEC` / `<executionId>`, gsi1 by status, gsi2 by
 * playbook (what a playbook's delete finds), gsi4 by incident, sparse (what an incident's page reads). One
 * item holds the steps, their progress and the ad-hoc actions, so every change is one conditional write on
 * `rev`.
 */
const executionPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'EXEC');
const statusPartition = (workspaceId: string, status: ExecutionStatus): string =>
  workspaceKey(workspaceId, 'EXEC', 'STATUS', status);
const byPlaybookPartition = (workspaceId: string, playbookId: string): string =>
  `${playbookPartition(workspaceId, playbookId)}#EXEC`;

const byIncidentPartition = (workspaceId: string, incidentId: string): string =>
  workspaceKey(workspaceId, 'EXEC', 'INC', incidentId);

const executionKey = (workspaceId: string, executionId: string) => ({
  pk: executionPartition(workspaceId),
  sk: executionId,
});

export interface ExecutionFilters {
  status?: ExecutionStatus;
  incidentId?: string;
}

/** An execution as read, with the `rev` its next write must carry. */
export interface ExecutionRecord {
  execution: Execution;
  rev: number;
}

const toItem = (workspaceId: string, { execution, rev }: ExecutionRecord): Item => ({
  ...executionKey(workspaceId, execution.executionId),
  gsi1pk: statusPartition(workspaceId, execution.status),
  gsi1sk: execution.executionId,
  gsi2pk: byPlaybookPartition(workspaceId, execution.playbookId),
  gsi2sk: execution.executionId,
  ...(execution.incidentId && {
    gsi4pk: byIncidentPartition(workspaceId, execution.incidentId),
    gsi4sk: execution.executionId,
  }),
  type: 'EXECUTION',
  workspaceId,
  ...execution,
  rev,
});

const fromItem = (item: Item, workspaceId: string): ExecutionRecord => {
  if (item.workspaceId !== workspaceId) throw new Error(`execution ${String(item.sk)} read outside its workspace`);
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _gsi1pk,
    gsi1sk: _gsi1sk,
    gsi2pk: _gsi2pk,
    gsi2sk: _gsi2sk,
    gsi4pk: _gsi4pk,
    gsi4sk: _gsi4sk,
    type: _type,
    workspaceId: _workspaceId,
    rev,
    ...execution
  } = item;
  return { execution: execution as unknown as Execution, rev: rev as number };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const executionRepository = (table: Table, workspaceId: string) => {
  const counters = executionCounterRepository(table, workspaceId);
  const insertExecution = async (execution: Execution): Promise<void> => {
    await putNew(table, toItem(workspaceId, { execution, rev: 1 }));
    await counters.countExecutionWrite(undefined, execution);
  };

  const findExecution = (executionId: string): Promise<ExecutionRecord | undefined> =>
    findItem(table, executionKey(workspaceId, executionId), (item) => fromItem(item, workspaceId));

  /** Writes `after` if nobody wrote the execution since `before` was read; false when someone did. */
  const replaceExecution = async (before: ExecutionRecord, after: Execution): Promise<boolean> => {
    const written = await putIf(table, toItem(workspaceId, { execution: after, rev: before.rev + 1 }), {
      ConditionExpression: 'rev = :rev',
      ExpressionAttributeValues: { ':rev': before.rev },
    });
    if (written) await counters.countExecutionWrite(before.execution, after);
    return written;
  };

  /**
   * Newest first: ids are ULIDs. With an incident, its own partition, any status as a filter, and the
   * total a COUNT of it (an incident has a handful of executions); otherwise the total is the counter's.
   */
  const queryExecutions = ({ status, incidentId }: ExecutionFilters, page: PageRequest): Promise<Page<Execution>> => {
    const partition = (index: 'gsi1' | 'gsi4' | undefined, pk: string): QueryInput => ({
      ...(index && { IndexName: index }),
      KeyConditionExpression: `${index ? `${index}pk` : 'pk'} = :pk`,
      ExpressionAttributeValues: { ':pk': pk },
    });
    const key = incidentId
      ? partition('gsi4', byIncidentPartition(workspaceId, incidentId))
      : status
        ? partition('gsi1', statusPartition(workspaceId, status))
        : partition(undefined, executionPartition(workspaceId));
    const input: QueryInput =
      incidentId && status
        ? {
            ...key,
            FilterExpression: '#status = :status',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ...key.ExpressionAttributeValues, ':status': status },
          }
        : key;
    const query = { ...input, ScanIndexForward: false };
    return queryPage(
      table,
      query,
      page,
      (item) => fromItem(item, workspaceId).execution,
      incidentId ? undefined : () => counters.readExecutionTotal(status),
    );
  };

  /** Deletes every execution of a playbook, then takes them out of the counters. */
  const removePlaybookExecutions = async (playbookId: string): Promise<void> => {
    const items = await queryAll(table, {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': byPlaybookPartition(workspaceId, playbookId) },
    });
    await batchDeleteItems(table, items.map(keyOf));
    await counters.uncountPlaybookExecutions(
      playbookId,
      items.map((item) => fromItem(item, workspaceId).execution),
    );
  };

  /** Every execution of the workspace: for the counter recount only (docs/data-model.md 6). */
  const allExecutions = async (): Promise<Execution[]> =>
    (
      await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': executionPartition(workspaceId) },
      })
    ).map((item) => fromItem(item, workspaceId).execution);

  /** The recount (docs/data-model.md 6) of every execution counter from the executions themselves. */
  const recountExecutions = async (): Promise<number> => {
    const executions = await allExecutions();
    await counters.rewriteExecutionCounters(executions);
    return executions.length;
  };

  return {
    insertExecution,
    findExecution,
    replaceExecution,
    queryExecutions,
    removePlaybookExecutions,
    recountExecutions,
  };
};
