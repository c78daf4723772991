import { defaultHypothesis } from './default-hypothesis.ts';
import { defaultImpact, defaultRemediation } from './default-plans.ts';
import type { Reasoner } from '#lib/ports/reasoner/reasoner.ts';

/** The engine that needs no model and no network: rules over the evidence (docs/analysis.md). */
export const defaultReasoner: Reasoner = {
  hypothesize: async (evidence) => defaultHypothesis(evidence),
  assessImpact: async (evidence, hypothesis) => defaultImpact(evidence, hypothesis),
  planRemediation: async (evidence, hypothesis) => defaultRemediation(evidence, hypothesis),
};
