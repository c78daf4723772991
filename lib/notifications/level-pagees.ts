import type { EscalationPolicy } from '#lib/escalation-policies/escalation-policy.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { scheduleShiftAt } from '#lib/schedules/on-call-now.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import type { Pagee } from './escalation-contact.ts';

/** Whom some levels of a policy page at an instant, and which of them a schedule put on call. */
export interface LevelPagees {
  people: Pagee[];
  onCall: string[];
}

/**
 * The targets of `levels` (1-based) at `at` (docs/on-call.md): a member by e-mail (and SMS when they connected a
 * number), an address as it is, a schedule's member on call at that instant. A target that names nobody any more
 * (a member removed from the workspace, also one still in a rotation; a deleted schedule; a schedule with nobody
 * on call then) is logged and pages nobody; the level's other targets are still paged.
 */
export const levelPagees = async (
  scope: Scope,
  policy: EscalationPolicy,
  levels: readonly number[],
  at: Date,
): Promise<LevelPagees> => {
  const members = new Map(
    (await workspaceRepository(scope.ports.table, scope.workspaceId).listMembers()).map((m) => [m.id, m]),
  );
  const result: LevelPagees = { people: [], onCall: [] };
  const page = (userId: string, onCall: boolean, why: string) => {
    const member = members.get(userId);
    if (!member) {
      log.info('escalation target names no member: nobody paged for it', { policyId: policy.id, why });
      return;
    }
    result.people.push({ email: member.email, userId: member.id });
    if (onCall) result.onCall.push(member.email);
  };
  for (const level of levels) {
    for (const target of policy.levels[level - 1]?.targets ?? []) {
      if (target.type === 'email') result.people.push({ email: target.address });
      else if (target.type === 'member') page(target.id, false, `member ${target.id}`);
      else {
        const shift = await scheduleShiftAt(scope, target.id, at);
        if (shift) page(shift.userId, true, `on call in schedule ${target.id}`);
        else log.info('escalation target has nobody on call', { policyId: policy.id, scheduleId: target.id });
      }
    }
  }
  return result;
};
