import { assertOfWorkspace, storedFields, textsOrNull } from '#lib/store/item-values.ts';
import { filterKey } from '#lib/store/filter-key.ts';
import type { PipelineRunInput, PipelineRunStatus } from '#lib/pipelines/pipeline-run-input.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { PipelineRunSummary, StoredJob } from './pipeline-run.ts';
import { numberOrNull, textOrNull } from '#lib/store/item-values.ts';

/**
 * PIPELINE_RUN items (docs/data-model.md 5.8): base `{W}#RUN` / `<runId>`; every index sorts by
 * `<startedAt>#<runId>`, so newest start first is key order: gsi1 by status, gsi2 by repository, gsi3 all runs.
 */
export const runPartition = (workspaceId: string): string => workspaceKey(workspaceId, 'RUN');

export const runStatusPartition = (workspaceId: string, status: PipelineRunStatus): string =>
  workspaceKey(workspaceId, 'RUN', 'STATUS', status);

export const runRepositoryPartition = (workspaceId: string, repositoryKey: string): string =>
  workspaceKey(workspaceId, 'RUN', 'REPO', repositoryKey);

export const runItemKey = (workspaceId: string, runId: string) => ({ pk: runPartition(workspaceId), sk: runId });

export const repositoryKeyOf = (repository: string): string => filterKey(repository);

const runIndexKeys = (
  workspaceId: string,
  run: { id: string; status: PipelineRunStatus; repository: string; startedAt: string },
) => {
  const order = `${run.startedAt}#${run.id}`;
  return {
    gsi1pk: runStatusPartition(workspaceId, run.status),
    gsi1sk: order,
    gsi2pk: runRepositoryPartition(workspaceId, repositoryKeyOf(run.repository)),
    gsi2sk: order,
    gsi3pk: runPartition(workspaceId),
    gsi3sk: order,
  };
};

/**
 * The run attributes one webhook sets, index keys included. `providerUpdatedAt`, `createdAt` and `jobs` are
 * not here: the repository decides how each is written (conditional order, written once, merged by name).
 */
export const runFields = (workspaceId: string, run: PipelineRunInput): Record<string, unknown> => ({
  ...runIndexKeys(workspaceId, {
    id: run.runKey,
    status: run.status,
    repository: run.repository,
    startedAt: run.startedAt,
  }),
  type: 'PIPELINE_RUN',
  workspaceId,
  id: run.runKey,
  provider: run.provider,
  providerRunId: run.providerRunId,
  repository: run.repository,
  repositoryKey: repositoryKeyOf(run.repository),
  branch: run.branch,
  commitSha: run.commitSha,
  commitMessage: run.commitMessage,
  triggeredBy: run.triggeredBy,
  status: run.status,
  startedAt: run.startedAt,
  finishedAt: run.finishedAt,
  durationSeconds: run.durationSeconds,
});

export const runSummaryFromItem = (item: Record<string, unknown>, workspaceId: string): PipelineRunSummary => {
  assertOfWorkspace(item, workspaceId, `pipeline run ${String(item.id)}`);
  return {
    ...storedFields<PipelineRunSummary>()(item, ['id', 'provider', 'repository', 'status', 'startedAt']),
    ...textsOrNull(item, ['branch', 'commitSha', 'finishedAt']),
    durationSeconds: numberOrNull(item.durationSeconds),
  };
};

/** The jobs map as a list ordered by name; the stored result time stays inside the item. */
const jobsFromItem = (item: Record<string, unknown>) =>
  Object.values((item.jobs as Record<string, StoredJob> | undefined) ?? {})
    .map(({ name, status, durationSeconds }) => ({ name, status, durationSeconds: numberOrNull(durationSeconds) }))
    .sort((a, b) => a.name.localeCompare(b.name));

export const runDetailsFromItem = (item: Record<string, unknown>) => ({
  commitMessage: textOrNull(item.commitMessage),
  triggeredBy: textOrNull(item.triggeredBy),
  jobs: jobsFromItem(item),
  createdAt: item.createdAt as string,
  updatedAt: item.updatedAt as string,
});
