import type { EscalationPolicy } from '#lib/escalation-policies/escalation-policy.ts';
import { escalationPolicyRepository } from '#lib/escalation-policies/escalation-policy-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { servicesOfArea } from '#lib/maintenance/maintenance-window.ts';
import { nameKeyOf } from '#lib/service-map/service.ts';
import { serviceMapRepository } from '#lib/service-map/service-map-repository.ts';
import { defaultPlan, type EscalationPlan, policyPlan } from './escalation-plan.ts';
import type { Incident } from './incident.ts';

/**
 * Which plan each incident of a workspace escalates by (docs/on-call.md): the escalation policy of the first
 * service of its `serviceArea` that names one, else the workspace's default escalation. The map and the policies
 * are read once, so a sweep asks for every OPEN incident at the cost of two queries.
 */
export interface PlanResolver {
  /** The workspace's policies: none (and no `autoEscalate`) means the sweep has nothing to page by. */
  policies: readonly EscalationPolicy[];
  planOf(incident: Incident): EscalationPlan;
}

export const planResolver = async ({ ports: { table }, workspaceId }: Scope): Promise<PlanResolver> => {
  const policies = await escalationPolicyRepository(table, workspaceId).listPolicies();
  const policyOfService = new Map<string, EscalationPolicy>();
  if (policies.length > 0) {
    const byId = new Map(policies.map((policy) => [policy.id, policy]));
    const { services } = await serviceMapRepository(table, workspaceId).readMap();
    for (const service of services) {
      const policy = service.escalationPolicyId ? byId.get(service.escalationPolicyId) : undefined;
      if (policy) policyOfService.set(nameKeyOf(service.name), policy);
    }
  }
  return {
    policies,
    planOf: (incident) => {
      for (const name of servicesOfArea(incident.serviceArea)) {
        const policy = policyOfService.get(nameKeyOf(name));
        if (policy) return policyPlan(policy);
      }
      return defaultPlan(incident);
    },
  };
};

/** The plan of one incident (the notification worker's and escalate-now's question). */
export const escalationPlanOf = async (scope: Scope, incident: Incident): Promise<EscalationPlan> =>
  (await planResolver(scope)).planOf(incident);
