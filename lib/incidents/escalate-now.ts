import { ConflictError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { sendEscalationPage } from './escalation.ts';
import { nextPage } from './escalation-plan.ts';
import { escalationPlanOf } from './escalation-plan-of.ts';
import { findIncident } from './get-incident.ts';
import { type Incident, isDone } from './incident.ts';

/**
 * Pages the next level of the incident's escalation now (docs/on-call.md, "Escalate now"), acknowledged or not; the
 * pages after it keep their delays from now on. A resolved or closed incident, a plan with no page left, or another
 * page claimed in between is a 409, and nothing is paged.
 */
export const escalateNow = async (scope: Scope, incidentId: string): Promise<Incident> => {
  const incident = await findIncident(scope, incidentId);
  if (isDone(incident.status)) {
    throw new ConflictError('The incident is resolved: there is nobody left to page', [
      `status: ${incident.status} incidents are not escalated`,
    ]);
  }
  const plan = await escalationPlanOf(scope, incident);
  const now = scope.ports.clock.now();
  const next = nextPage(incident, plan, now);
  if (!next) {
    throw new ConflictError('The escalation has no further level', [
      `escalationLevel: level ${incident.escalationLevel ?? 1} was the last page of ${plan.policy ? `"${plan.policy.name}"` : 'the default escalation'}`,
    ]);
  }
  const after = await sendEscalationPage(scope, incident, { plan, page: next.page, now, startedAt: next.startedAt });
  if (!after) throw new ConflictError('The incident was escalated or resolved meanwhile; try again');
  return after;
};
