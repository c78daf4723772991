import type { Page, PageRequest } from '#lib/store/pages.ts';
import type { PipelineProvider, PipelineRunInput, PipelineRunStatus } from '#lib/pipelines/pipeline-run-input.ts';
import type { QueryInput } from '#lib/store/queries.ts';
import { queryPage } from '#lib/store/pages.ts';
import type { Table } from '#lib/store/table.ts';
import { putIfAbsent, putItem, updateFromBefore, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { countListWrite, readCountedTotal } from '#lib/store/list-counters.ts';
import { fieldAssignments } from '#lib/store/set-fields.ts';
import { getItem } from '#lib/store/items.ts';
import { runPayloadFromItem, runPayloadItemKey, runPayloadToItem } from './pipeline-payload-item.ts';
import {
  repositoryKeyOf,
  runDetailsFromItem,
  runFields,
  runItemKey,
  runPartition,
  runRepositoryPartition,
  runStatusPartition,
  runSummaryFromItem,
} from './pipeline-run-item.ts';
import type { PipelineRun, PipelineRunSummary, StoredJob } from './pipeline-run.ts';
import { RUN_COUNTER } from './pipeline-run-counter.ts';

export interface RunFilter {
  status?: PipelineRunStatus;
  provider?: PipelineProvider;
  repository?: string;
  branch?: string;
}

/**
 * The partition of the most selective filter that has an index (status, then repository, then all runs), the
 * other filters in a FilterExpression (docs/data-model.md 5.8).
 */
const listQuery = (workspaceId: string, { status, provider, repository, branch }: RunFilter): QueryInput => {
  const repositoryKey = repository === undefined ? undefined : repositoryKeyOf(repository);
  const [index, partition, filters] = status
    ? (['gsi1', runStatusPartition(workspaceId, status), { provider, repositoryKey, branch }] as const)
    : repositoryKey
      ? (['gsi2', runRepositoryPartition(workspaceId, repositoryKey), { provider, branch }] as const)
      : (['gsi3', runPartition(workspaceId), { provider, branch }] as const);
  const given = Object.entries(filters).filter(([, value]) => value !== undefined);
  return {
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    ...(given.length > 0 && {
      FilterExpression: given.map(([name]) => `#${name} = :${name}`).join(' AND '),
      ExpressionAttributeNames: Object.fromEntries(given.map(([name]) => [`#${name}`, name])),
    }),
    ExpressionAttributeValues: {
      ':pk': partition,
      ...Object.fromEntries(given.map(([name, value]) => [`:${name}`, value])),
    },
    ScanIndexForward: false,
  };
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const pipelineRunRepository = (table: Table, workspaceId: string) => {
  /**
   * Writes what an event about the whole run says, in one conditional UpdateItem: an event older than the stored
   * state is dropped (false). A run first created by a job event has no `providerUpdatedAt`, so any run event wins.
   */
  const applyRunEvent = async (run: PipelineRunInput, now: string): Promise<boolean> => {
    const fields = runFields(workspaceId, run);
    const set = fieldAssignments(fields);
    const written = await updateFromBefore(table, runItemKey(workspaceId, run.runKey), {
      UpdateExpression: `SET ${[
        ...set.clauses,
        '#providerUpdatedAt = :incoming',
        '#updatedAt = :now',
        '#createdAt = if_not_exists(#createdAt, :now)',
        '#jobs = if_not_exists(#jobs, :noJobs)',
      ].join(', ')}`,
      ConditionExpression:
        'attribute_not_exists(sk) OR attribute_not_exists(#providerUpdatedAt) OR #providerUpdatedAt <= :incoming',
      ExpressionAttributeNames: {
        ...set.names,
        '#providerUpdatedAt': 'providerUpdatedAt',
        '#updatedAt': 'updatedAt',
        '#createdAt': 'createdAt',
        '#jobs': 'jobs',
      },
      ExpressionAttributeValues: { ...set.values, ':incoming': run.updatedAt, ':now': now, ':noJobs': {} },
    });
    if (!written) return false;
    await countListWrite(table, workspaceId, RUN_COUNTER, written.before, fields);
    return true;
  };

  /**
   * A job event's run: created from what the job event knows when the run is still unknown, otherwise left as it
   * is (every field `if_not_exists`), since only the job is news.
   */
  const ensureRun = async (run: PipelineRunInput, now: string): Promise<void> => {
    const fields = runFields(workspaceId, run);
    const set = fieldAssignments(
      { ...fields, createdAt: now, jobs: {} },
      (name, value) => `${name} = if_not_exists(${name}, ${value})`,
    );
    const written = await updateFromBefore(table, runItemKey(workspaceId, run.runKey), {
      UpdateExpression: `SET ${set.clauses.join(', ')}`,
      ExpressionAttributeNames: set.names,
      ExpressionAttributeValues: set.values,
    });
    if (!written?.before) await countListWrite(table, workspaceId, RUN_COUNTER, undefined, fields);
  };

  /** A finished job into the run's `jobs` map by name, unless the run already holds a later result of that job. */
  const mergeJob = async (runId: string, job: StoredJob, now: string): Promise<void> => {
    await updateIfPresent(table, runItemKey(workspaceId, runId), {
      UpdateExpression: 'SET #jobs.#job = :job, #updatedAt = :now',
      ConditionExpression: 'attribute_not_exists(#jobs.#job) OR #jobs.#job.#providerUpdatedAt <= :incoming',
      ExpressionAttributeNames: {
        '#jobs': 'jobs',
        '#job': job.name,
        '#providerUpdatedAt': 'providerUpdatedAt',
        '#updatedAt': 'updatedAt',
      },
      ExpressionAttributeValues: { ':job': job, ':incoming': job.providerUpdatedAt, ':now': now },
    });
  };

  /** The run's latest webhook body; `onlyIfAbsent` keeps a run event's body from being replaced by a job event's. */
  const putRunPayload = async (
    runId: string,
    payload: unknown,
    now: string,
    { onlyIfAbsent }: { onlyIfAbsent: boolean },
  ): Promise<void> => {
    const item = runPayloadToItem(workspaceId, runId, payload, now);
    if (onlyIfAbsent) await putIfAbsent(table, item);
    else await putItem(table, item);
  };

  const findRun = async (runId: string): Promise<PipelineRun | undefined> => {
    const [run, payload] = await Promise.all([
      getItem(table, runItemKey(workspaceId, runId), false),
      getItem(table, runPayloadItemKey(workspaceId, runId), false),
    ]);
    if (!run) return undefined;
    return {
      ...runSummaryFromItem(run, workspaceId),
      ...runDetailsFromItem(run),
      ...runPayloadFromItem(payload),
    };
  };

  /** Newest start first: every index of the list sorts by `<startedAt>#<runId>`; the total is the counter's. */
  const listRuns = async (filter: RunFilter, page: PageRequest): Promise<Page<PipelineRunSummary>> => {
    return queryPage(
      table,
      listQuery(workspaceId, filter),
      page,
      (item) => runSummaryFromItem(item, workspaceId),
      () =>
        readCountedTotal(table, workspaceId, RUN_COUNTER, {
          ...filter,
          repositoryKey: filter.repository === undefined ? undefined : repositoryKeyOf(filter.repository),
        }),
    );
  };
  return { applyRunEvent, ensureRun, mergeJob, putRunPayload, findRun, listRuns };
};
