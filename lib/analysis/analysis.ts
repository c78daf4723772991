import type { EngineNote, Hypothesis, ImpactAssessment, RemediationPlan } from '#lib/ports/reasoner/reasoner.ts';

/** The stages of the analysis workflow, in the order the state machine runs them. */
export const ANALYSIS_STAGES = [
  'context-gathering',
  'hypothesis-generation',
  'impact-assessment',
  'remediation-planning',
] as const;
export type AnalysisStage = (typeof ANALYSIS_STAGES)[number] | 'failed';

export const ANALYSIS_STATUSES = ['PROCESSING', 'COMPLETE', 'FAILED'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

/** What the state machine hands from stage to stage: enough to find the analysis, nothing of its content. */
export interface AnalysisState {
  workspaceId: string;
  analysisId: string;
  incidentId: string;
  /** When the analysis was asked for: the finishing stage measures the whole run from it. */
  requestedAt: string;
}

/** An analysis as stored: its state and each thinking stage's whole result, once that stage has run. */
export interface Analysis {
  analysisId: string;
  incidentId: string;
  status: AnalysisStatus;
  /** The last stage that finished, `queued` before the first. */
  stage: AnalysisStage | 'queued';
  estimatedCompletionSeconds: number;
  createdAt: string;
  /** When its evidence was gathered: the analysis knows nothing later, and its texts say "as of" this time. */
  asOf: string | null;
  completedAt: string | null;
  failureReason: string | null;
  hypothesisResult: Hypothesis | null;
  impactResult: ImpactAssessment | null;
  remediationResult: RemediationPlan | null;
}

/** Which engine reasoned: the first stage that fell back to the default engine says why, else the first stage's. */
const engineOf = (analysis: Analysis): EngineNote | null => {
  const notes = [analysis.hypothesisResult, analysis.impactResult, analysis.remediationResult].flatMap((result) =>
    result ? [result.engine] : [],
  );
  return notes.find((note) => note.fallbackReason) ?? notes[0] ?? null;
};

/** The spec's Analysis fields, plus its stage, failure reason, engine and the evidence ids each claim cites. */
export const analysisView = (analysis: Analysis) => {
  const { hypothesisResult: h, impactResult: i, remediationResult: r } = analysis;
  return {
    analysisId: analysis.analysisId,
    incidentId: analysis.incidentId,
    status: analysis.status,
    stage: analysis.stage,
    estimatedCompletionSeconds: analysis.estimatedCompletionSeconds,
    hypothesis: h?.hypothesis.text ?? null,
    rootCause: h?.rootCause.text ?? null,
    impactAssessment: i?.impactAssessment.text ?? null,
    contributingFactors: i?.contributingFactors.map((claim) => claim.text) ?? [],
    remediationOptions: r?.remediationOptions.map((claim) => claim.text) ?? [],
    confidence: h?.confidence ?? null,
    createdAt: analysis.createdAt,
    asOf: analysis.asOf,
    completedAt: analysis.completedAt,
    failureReason: analysis.failureReason,
    engine: engineOf(analysis),
    citations: {
      hypothesis: h?.hypothesis.evidenceIds ?? [],
      rootCause: h?.rootCause.evidenceIds ?? [],
      impactAssessment: i?.impactAssessment.evidenceIds ?? [],
      contributingFactors: i?.contributingFactors.map((claim) => claim.evidenceIds) ?? [],
      remediationOptions: r?.remediationOptions.map((claim) => claim.evidenceIds) ?? [],
    },
  };
};

export type AnalysisView = ReturnType<typeof analysisView>;

export const AUDIENCES = ['ENGINEER', 'LEADERSHIP'] as const;
export type Audience = (typeof AUDIENCES)[number];

export interface AnalysisReport {
  reportId: string;
  analysisId: string;
  audience: Audience;
  content: string;
  generatedAt: string;
}

/** Analysis ids are ULIDs; any other value names no analysis and is answered without a read. */
export const isAnalysisId = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
