import { NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { imsConfigRepository } from '#lib/workspaces/ims-config-repository.ts';
import type { PolicyInput } from './schemas.ts';
import { askToConfirm, outsideRecipients } from '#lib/workspaces/outside-recipients.ts';
import { slaPolicyRepository } from './sla-policy-repository.ts';
import { complianceOf, governingPolicy, isPolicyId, type SlaCompliance, type SlaPolicy } from './sla-policy.ts';

const notFound = (policyId: string): NotFoundError =>
  new NotFoundError('SLA policy not found', [`id: no SLA policy ${policyId} in this workspace`]);

/** An escalation contact outside the members: an ADMIN's alone, and it confirms before it is paged. */
const outsideContact = (scope: Scope, { escalationContact }: PolicyInput) =>
  outsideRecipients(scope, [{ field: 'escalationContact', name: escalationContact }]);

const askContactToConfirm = (scope: Scope, outside: string[], policy: SlaPolicy, baseUrl: string) =>
  askToConfirm(scope, outside, { namedAs: `escalation contact of the SLA policy ${policy.name}`, baseUrl });

/**
 * Active at once: the next incident created of its priority and team is governed by it. `baseUrl` is the API's
 * URL as the caller reached it, for the confirmation link of an outside escalation contact.
 */
export const createPolicy = async (scope: Scope, input: PolicyInput, baseUrl: string) => {
  const {
    ports: { table, clock, ids },
    workspaceId,
  } = scope;
  const outside = await outsideContact(scope, input);
  const now = clock.now().toISOString();
  const policy: SlaPolicy = { ...input, id: ids.sortable(), breachStatus: 'NONE', createdAt: now, updatedAt: now };
  await slaPolicyRepository(table, workspaceId).insertPolicy(policy);
  await askContactToConfirm(scope, outside, policy, baseUrl);
  return policy;
};

export const listPolicies = async ({ ports: { table }, workspaceId }: Scope): Promise<SlaPolicy[]> =>
  (await slaPolicyRepository(table, workspaceId).queryPolicies()).map(({ policy }) => policy);

/** The policy with its compliance: each target's met percent against its threshold, and uptime. */
export const getPolicy = async (
  { ports: { table, clock }, workspaceId }: Scope,
  policyId: string,
): Promise<SlaPolicy & { compliance: SlaCompliance }> => {
  const stored = isPolicyId(policyId) ? await slaPolicyRepository(table, workspaceId).findPolicy(policyId) : undefined;
  if (!stored) throw notFound(policyId);
  return { ...stored.policy, compliance: complianceOf(stored.policy, stored.counters, clock.now()) };
};

/**
 * Full replace: every field as given. The incidents it governs stay governed, with the deadlines they
 * were given; incidents created from now on get the new targets.
 */
export const replacePolicy = async (
  scope: Scope,
  { id, fields, baseUrl }: { id: string; fields: PolicyInput; baseUrl: string },
): Promise<SlaPolicy> => {
  const {
    ports: { table, clock },
    workspaceId,
  } = scope;
  const outside = await outsideContact(scope, fields);
  const stored = isPolicyId(id)
    ? await slaPolicyRepository(table, workspaceId).replacePolicyFields(id, fields, clock.now().toISOString())
    : undefined;
  if (!stored) throw notFound(id);
  await askContactToConfirm(scope, outside, stored.policy, baseUrl);
  return stored.policy;
};

/** The incidents it governed keep the outcomes they recorded; their pending ones are still decided. */
export const deletePolicy = async ({ ports: { table }, workspaceId }: Scope, policyId: string): Promise<void> => {
  if (!isPolicyId(policyId) || !(await slaPolicyRepository(table, workspaceId).removePolicy(policyId))) {
    throw notFound(policyId);
  }
};

/** The targets an incident is held to from its creation. */
export interface SlaTargets {
  policyId: string;
  responseTimeMinutes: number;
  resolveTimeMinutes: number;
}

/**
 * The targets for a new incident of `priority` and `team` (its serviceArea), or undefined when the
 * workspace's IMS configuration does not enable SLAs or no policy governs it. Two reads at once: the IMS
 * configuration and the workspace's policies.
 */
export const targetsForIncident = async (
  { ports: { table }, workspaceId }: Scope,
  { priority, team }: { priority: string; team: string | undefined },
): Promise<SlaTargets | undefined> => {
  const [config, policies] = await Promise.all([
    imsConfigRepository(table, workspaceId).getImsConfig(),
    slaPolicyRepository(table, workspaceId).queryPolicies(),
  ]);
  if (!config?.slaEnabled) return undefined;
  const policy = governingPolicy(
    policies.map((stored) => stored.policy),
    priority,
    team,
  );
  return (
    policy && {
      policyId: policy.id,
      responseTimeMinutes: policy.responseTimeMinutes,
      resolveTimeMinutes: policy.resolveTimeMinutes,
    }
  );
};

/** Whether SLA evaluation runs for the workspace (IMS `slaEnabled`, off without a configuration). */
export const slaEnabled = async ({ ports: { table }, workspaceId }: Scope): Promise<boolean> =>
  (await imsConfigRepository(table, workspaceId).getImsConfig())?.slaEnabled === true;

/** Adds an incident's change to its policy's counters; nothing when the policy was deleted. */
export const countGovernedIncident = async (
  { ports: { table }, workspaceId }: Scope,
  { policyId, delta }: { policyId: string; delta: Record<string, number> },
): Promise<void> => {
  await slaPolicyRepository(table, workspaceId).addToPolicyCounters(policyId, delta);
};
