import { NotFoundError } from '#lib/contract/errors.ts';
import type { Page, PageRequest } from '#lib/store/pages.ts';
import { type RunFilter, pipelineRunRepository } from './pipeline-run-repository.ts';
import type { PipelineRun, PipelineRunSummary } from './pipeline-run.ts';
import type { Scope } from '#lib/identity/scope.ts';

export const listPipelineRuns = (
  { ports: { table }, workspaceId }: Scope,
  { page, limit, cursor, ...filter }: RunFilter & PageRequest,
): Promise<Page<PipelineRunSummary>> =>
  pipelineRunRepository(table, workspaceId).listRuns(filter, { page, limit, cursor });

/** The full record with jobs and raw payload; another workspace's run is simply not found. */
export const getPipelineRun = async ({ ports: { table }, workspaceId }: Scope, runId: string): Promise<PipelineRun> => {
  const run = await pipelineRunRepository(table, workspaceId).findRun(runId);
  if (!run) throw new NotFoundError('Pipeline run not found', [`id: no pipeline run ${runId}`]);
  return run;
};
