import type { PipelineRunInput } from '#lib/pipelines/pipeline-run-input.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { pipelineRunRepository } from './pipeline-run-repository.ts';

/**
 * Records what one webhook says about a pipeline run (docs/data-model.md 5.8), idempotently, so a redelivery
 * repairs a crash halfway:
 * - a run event sets the run's fields unless the stored state is newer, and then keeps its body as the raw payload;
 * - a job event creates the run if it is unknown and keeps its body only if the run has none yet;
 * - either merges its finished jobs by name, a job's later result winning over an earlier one.
 * Returns whether the event changed the run's own fields (false for a late, older run event and for job events).
 */
export const upsertPipelineRun = async (
  { ports: { table, clock }, workspaceId }: Scope,
  run: PipelineRunInput,
): Promise<{ runId: string; applied: boolean }> => {
  const pipelineRuns = pipelineRunRepository(table, workspaceId);
  const now = clock.now().toISOString();
  let applied = false;
  if (run.scope === 'run') applied = await pipelineRuns.applyRunEvent(run, now);
  else await pipelineRuns.ensureRun(run, now);
  // A job map key must be a non-empty name; a nameless job has nothing to merge by.
  const jobs = run.jobs.filter((job) => job.name.length > 0);
  await Promise.all([
    ...jobs.map((job) => pipelineRuns.mergeJob(run.runKey, { ...job, providerUpdatedAt: run.updatedAt }, now)),
    ...(applied || run.scope === 'job'
      ? [
          pipelineRuns.putRunPayload(run.runKey, run.rawPayload, now, {
            onlyIfAbsent: run.scope === 'job',
          }),
        ]
      : []),
  ]);
  return { runId: run.runKey, applied };
};
