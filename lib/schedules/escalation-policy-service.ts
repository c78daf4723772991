import { BadRequestError, NotFoundError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { scheduleRepository } from './schedule-repository.ts';
import { assignableIds } from './assignable-ids.ts';
import type { EscalationPolicy } from '#lib/escalation-policies/escalation-policy.ts';
import { escalationPolicyRepository } from '#lib/escalation-policies/escalation-policy-repository.ts';
import type { EscalationPolicyInput } from '#lib/escalation-policies/schemas.ts';
import { askToConfirm, outsideRecipients } from '#lib/workspaces/outside-recipients.ts';

const notFound = (): NotFoundError => new NotFoundError('Escalation policy not found');

const repositoryOf = (scope: Scope) => escalationPolicyRepository(scope.ports.table, scope.workspaceId);

/**
 * Every member (or open invitation) and schedule a level names must be the caller's workspace's: a 400 naming
 * each unknown one, so a policy never pages into the void (an address is checked by `outsideTargets`).
 */
const checkTargets = async (scope: Scope, input: EscalationPolicyInput): Promise<void> => {
  const { table } = scope.ports;
  const [members, schedules] = await Promise.all([
    assignableIds(scope),
    scheduleRepository(table, scope.workspaceId).listSchedules(),
  ]);
  const known = { member: members, schedule: new Set(schedules.map((s) => s.id)) };
  const unknown = input.levels.flatMap((level, index) =>
    level.targets.flatMap((target, turn) =>
      target.type !== 'email' && !known[target.type].has(target.id)
        ? [`levels.${index}.targets.${turn}.id: no ${target.type} ${target.id} in this workspace`]
        : [],
    ),
  );
  if (unknown.length > 0) throw new BadRequestError('Unknown escalation target', unknown);
};

/** The address targets outside the members: an ADMIN's alone, and each confirms before it is paged. */
const outsideTargets = (scope: Scope, input: EscalationPolicyInput) =>
  outsideRecipients(
    scope,
    input.levels.flatMap((level, index) =>
      level.targets.flatMap((target, turn) =>
        target.type === 'email' ? [{ field: `levels.${index}.targets.${turn}.address`, name: target.address }] : [],
      ),
    ),
  );

const askTargetsToConfirm = (scope: Scope, outside: string[], policy: EscalationPolicy, baseUrl: string) =>
  askToConfirm(scope, outside, { namedAs: `a target of the escalation policy ${policy.name}`, baseUrl });

/** `baseUrl`: the API's URL as the caller reached it, for the confirmation link of an outside address. */
export const createEscalationPolicy = async (
  scope: Scope,
  input: EscalationPolicyInput,
  baseUrl: string,
): Promise<EscalationPolicy> => {
  await checkTargets(scope, input);
  const outside = await outsideTargets(scope, input);
  const now = scope.ports.clock.now().toISOString();
  const policy: EscalationPolicy = { id: scope.ports.ids.sortable(), ...input, createdAt: now, updatedAt: now };
  await repositoryOf(scope).putPolicy(policy);
  await askTargetsToConfirm(scope, outside, policy, baseUrl);
  return policy;
};

export const listEscalationPolicies = (scope: Scope): Promise<EscalationPolicy[]> => repositoryOf(scope).listPolicies();

export const getEscalationPolicy = async (scope: Scope, policyId: string): Promise<EscalationPolicy> => {
  const policy = await repositoryOf(scope).getPolicy(policyId);
  if (!policy) throw notFound();
  return policy;
};

/** Replaces everything but the id and `createdAt`; incidents under way follow the new levels from their next page. */
export const replaceEscalationPolicy = async (
  scope: Scope,
  policyId: string,
  input: EscalationPolicyInput,
  baseUrl: string,
): Promise<EscalationPolicy> => {
  const existing = await getEscalationPolicy(scope, policyId);
  await checkTargets(scope, input);
  const outside = await outsideTargets(scope, input);
  const policy: EscalationPolicy = {
    id: existing.id,
    ...input,
    createdAt: existing.createdAt,
    updatedAt: scope.ports.clock.now().toISOString(),
  };
  await repositoryOf(scope).putPolicy(policy);
  await askTargetsToConfirm(scope, outside, policy, baseUrl);
  return policy;
};

/** Services still naming a deleted policy fall back to the workspace's default one (docs/decisions.md). */
export const deleteEscalationPolicy = async (scope: Scope, policyId: string): Promise<void> => {
  if (!(await repositoryOf(scope).deletePolicy(policyId))) throw notFound();
};
