/** The stages of the analysis workflow, in the order the state machine runs them. */
export const ANALYSIS_STAGES = [
  'context-gathering',
  'hypothesis-generation',
  'impact-assessment',
  'remediation-planning',
] as const;

export type AnalysisStage = (typeof ANALYSIS_STAGES)[number] | 'failed';

export interface StageEvent {
  stage: AnalysisStage;
  input: Record<string, unknown>;
}

/**
 * One task of the analysis state machine. The stages' reasoning arrives with the analysis engine; until
 * then each stage hands the state on and records that it ran, so the workflow is exercised end to end.
 */
export const handler = async ({ stage, input }: StageEvent): Promise<Record<string, unknown>> => {
  const stagesRun = Array.isArray(input.stagesRun) ? input.stagesRun : [];
  return { ...input, stagesRun: [...stagesRun, stage] };
};
