import type { Evidence } from './evidence.ts';

/** A statement of the analysis and the ids of the evidence items it rests on (none: it says what is unknown). */
export interface Claim {
  text: string;
  evidenceIds: string[];
}

export const SUSPECT_KINDS = ['DEPLOY', 'UPSTREAM', 'SERVICE', 'UNKNOWN'] as const;
export type SuspectKind = (typeof SUSPECT_KINDS)[number];

/** What the hypothesis blames, in a form the later stages and the incident routes build on. */
interface Suspect {
  kind: SuspectKind;
  /** The service at fault: the deployed one, the upstream one, or the incident's own. */
  service: string | null;
  /** The item that names the cause (the deploy, the upstream's first signal); null for UNKNOWN. */
  evidenceId: string | null;
}

/** Which engine answered, and why the default one did when a model was configured. */
export interface EngineNote {
  name: 'default' | 'bedrock';
  modelId: string | null;
  fallbackReason: string | null;
}

export interface Hypothesis {
  hypothesis: Claim;
  rootCause: Claim;
  /** The cause in words anyone understands: no product, tool or engineering terms. */
  plainCause: string;
  suspect: Suspect;
  confidence: number;
  engine: EngineNote;
}

export interface ImpactAssessment {
  impactAssessment: Claim;
  contributingFactors: Claim[];
  /** The impact in plain words, for leadership and stakeholders. */
  plainImpact: string;
  engine: EngineNote;
}

export interface RemediationPlan {
  /** Ordered: the first is what to do first. */
  remediationOptions: Claim[];
  /** The same steps in plain words. */
  plainNextSteps: string[];
  engine: EngineNote;
}

/**
 * The reasoning of the three analysis stages that think (context gathering only collects evidence). Every
 * engine answers from the evidence it is given and cites it; none reads the workspace itself.
 */
export interface Reasoner {
  hypothesize(evidence: Evidence): Promise<Hypothesis>;
  assessImpact(evidence: Evidence, hypothesis: Hypothesis): Promise<ImpactAssessment>;
  planRemediation(evidence: Evidence, hypothesis: Hypothesis, impact: ImpactAssessment): Promise<RemediationPlan>;
}

/**
 * The reasoner port: given the rule-based engine (lib/analysis/engine, domain code that needs no model),
 * the engine this deployment answers with: a model that falls back to those rules whenever it fails, or
 * the rules alone.
 */
export type Reasoning = (rules: Reasoner) => Reasoner;
