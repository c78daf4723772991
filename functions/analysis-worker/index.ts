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

/**
 * What the rule on unfinished executions delivers (infra/constructs/analysis-workflow.ts): EventBridge's
 * Step Functions status change, whose `input` is the execution's input as JSON text.
 */
export interface ExecutionEndedEvent {
  'detail-type': 'Step Functions Execution Status Change';
  detail: { status: string; input: string; error?: string | null; cause?: string | null };
}

/**
 * One stage of the analysis workflow (a thrown error is the task's failure, retried then caught by the
 * machine), or the end of an execution that may have skipped MarkFailed (a timeout, an abort, a MarkFailed
 * that failed itself): that end is recorded as MarkFailed would record it.
 */
export const handler = async (event: StageEvent | ExecutionEndedEvent): Promise<AnalysisState> => {
  const scope = systemAccountScope(portsOf(analysisWorker));
  if ('detail' in event) {
    const { status, input, error, cause } = event.detail;
    return runAnalysisStage(scope, {
      stage: 'failed',
      input: {
        ...(JSON.parse(input) as AnalysisState),
        error: { Error: error ?? `Execution ${status}`, Cause: cause ?? `the analysis execution ended ${status}` },
      },
    });
  }
  return runAnalysisStage(scope, { stage: event.stage, input: event.input as unknown as AnalysisState });
};
