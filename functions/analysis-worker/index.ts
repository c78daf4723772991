import type { AnalysisStage, AnalysisState } from '#lib/analysis/analysis.ts';
import { runAnalysisStage } from '#lib/analysis/run-stage.ts';
import { systemAccountScope } from '#lib/identity/scope.ts';
import { portsOf } from '#lib/ports/port-set.ts';
import { analysisWorker } from '#lib/workers/analysis-worker.ts';

/** What each Task of the analysis state machine sends: the stage to run and the state so far. */
export interface StageEvent {
  stage: AnalysisStage;
  input: Record<string, unknown>;
}

/** One stage of the analysis workflow; a thrown error is the task's failure, retried then caught by the machine. */
export const handler = async ({ stage, input }: StageEvent): Promise<AnalysisState> =>
  runAnalysisStage(systemAccountScope(portsOf(analysisWorker)), { stage, input: input as unknown as AnalysisState });
