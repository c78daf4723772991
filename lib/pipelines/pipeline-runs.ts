import { NotFoundError } from '#lib/contract/errors.ts';
import type { PageRequest } from '#lib/store/queries.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { findRun, listRuns, type RunFilter } from './pipeline-run-repository.ts';
import type { PipelineRun, PipelineRunSummary } from './pipeline-run.ts';

export const listPipelineRuns = (
  { table }: Pick<Ports, 'table'>,
  workspaceId: string,
  filter: RunFilter,
  page: PageRequest,
): Promise<{ items: PipelineRunSummary[]; total: number }> => listRuns(table, workspaceId, filter, page);

/** The full record with jobs and raw payload; another workspace's run is simply not found. */
export const getPipelineRun = async ({ table }: Pick<Ports, 'table'>, workspaceId: string, runId: string): Promise<PipelineRun> => {
  const run = await findRun(table, workspaceId, runId);
  if (!run) throw new NotFoundError('Pipeline run not found', [`id: no pipeline run ${runId}`]);
  return run;
};
