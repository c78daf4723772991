import type { AccountScope } from '#lib/identity/scope.ts';
import type { Table } from '#lib/store/table.ts';
import { escalationPolicyRepository } from '#lib/escalation-policies/escalation-policy-repository.ts';
import { acceptInvite } from '#lib/workspaces/invite-acceptance.ts';
import { inviteRepository } from '#lib/workspaces/invite-repository.ts';
import type { AcceptInviteInput } from '#lib/workspaces/schemas.ts';
import { scheduleRepository } from './schedule-repository.ts';

/**
 * Schedules and policies may name an invitation (assignable-ids.ts). The turns, overrides and policy targets that
 * name any invitation to `email`, handed to the member who accepted one; a re-sent invitation's predecessor names
 * the same person. Rewriting only what names them, it is idempotent.
 */
const handOverInvitedTurns = async (
  table: Table,
  joined: { workspaceId: string; email: string; userId: string; now: string },
): Promise<void> => {
  const inviteIds = new Set(await inviteRepository(table, joined.workspaceId).inviteIdsTo(joined.email));
  const swap = (id: string): string => (inviteIds.has(id) ? joined.userId : id);
  const schedules = scheduleRepository(table, joined.workspaceId);
  for (const schedule of await schedules.listSchedules()) {
    if (schedule.layers.some((layer) => layer.members.some((id) => inviteIds.has(id)))) {
      const layers = schedule.layers.map((layer) => ({ ...layer, members: layer.members.map(swap) }));
      await schedules.putSchedule({ ...schedule, layers, updatedAt: joined.now });
    }
    for (const override of await schedules.listOverrides(schedule.id)) {
      if (inviteIds.has(override.userId)) await schedules.putOverride({ ...override, userId: joined.userId });
    }
  }
  const policies = escalationPolicyRepository(table, joined.workspaceId);
  for (const policy of await policies.listPolicies()) {
    const named = policy.levels.some((level) => level.targets.some((t) => t.type === 'member' && inviteIds.has(t.id)));
    if (!named) continue;
    const levels = policy.levels.map((level) => ({
      ...level,
      targets: level.targets.map((t) => (t.type === 'member' ? { ...t, id: swap(t.id) } : t)),
    }));
    await policies.putPolicy({ ...policy, levels, updatedAt: joined.now });
  }
};

/** Accepting an invitation, the turns it held becoming the new member's before it is marked accepted. */
export const acceptInviteTakingTurns = (scope: AccountScope, input: AcceptInviteInput) =>
  acceptInvite(scope, input, (joined) => handOverInvitedTurns(scope.ports.table, joined));
