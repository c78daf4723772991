import { reasonerOf } from './engine/reasoner-of.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import type { Evidence } from '#lib/ports/reasoner/evidence.ts';
import type { Claim, Hypothesis } from '#lib/ports/reasoner/reasoner.ts';
import { gatherEvidence } from './evidence/gather-evidence.ts';
import { fiveWhysOf } from './five-whys.ts';
import { customerExposure, plainTitle, timeToRecover } from './report-content.ts';

/** The incident routes reason on request, from the evidence as it is now (docs/data-model.md 5.4: nothing stored). */
export const reasonAbout = async (
  scope: Scope,
  incident: Incident,
): Promise<{ evidence: Evidence; hypothesis: Hypothesis }> => {
  const evidence = await gatherEvidence(scope, incident);
  return { evidence, hypothesis: await reasonerOf(scope).hypothesize(evidence) };
};

export const fiveWhys = async (scope: Scope, incidentId: string) => {
  const { evidence, hypothesis } = await reasonAbout(scope, await findIncident(scope, incidentId));
  const whys = fiveWhysOf(evidence, hypothesis);
  const [why1, why2, why3, why4, why5] = whys.map((why) => why.text);
  return {
    incidentId: evidence.incident.id,
    why1,
    why2,
    why3,
    why4,
    why5,
    rootCause: hypothesis.rootCause.text,
    confidence: hypothesis.confidence,
    citations: { whys: whys.map((why) => why.evidenceIds), rootCause: hypothesis.rootCause.evidenceIds },
  };
};

const suggestion = (claim: Claim) => ({ action: claim.text, evidenceIds: claim.evidenceIds });

export const suggestions = async (scope: Scope, incidentId: string) => {
  const { evidence, hypothesis } = await reasonAbout(scope, await findIncident(scope, incidentId));
  const impact = await reasonerOf(scope).assessImpact(evidence, hypothesis);
  const plan = await reasonerOf(scope).planRemediation(evidence, hypothesis, impact);
  return {
    incidentId: evidence.incident.id,
    rootCause: hypothesis.rootCause.text,
    confidence: hypothesis.confidence,
    suggestions: plan.remediationOptions.map(suggestion),
  };
};

/** A message for people outside engineering: what happened, who is affected, when it should be over, what next. */
export const stakeholderMessage = async (scope: Scope, incidentId: string) => {
  const incident = await findIncident(scope, incidentId);
  const { evidence, hypothesis } = await reasonAbout(scope, incident);
  const impact = await reasonerOf(scope).assessImpact(evidence, hypothesis);
  const plan = await reasonerOf(scope).planRemediation(evidence, hypothesis, impact);
  const state = incident.resolvedAt ? 'has been resolved' : 'is being worked on';
  const message = [
    `Update on ${plainTitle(evidence.incident)}: the problem ${state}.`,
    impact.plainImpact,
    hypothesis.plainCause,
    customerExposure(evidence),
    timeToRecover(evidence),
    plan.plainNextSteps.length > 0 ? `Next: ${plan.plainNextSteps.join(' ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { incidentId: incident.id, message, generatedAt: scope.ports.clock.now().toISOString() };
};
