import type { Scope } from '#lib/identity/scope.ts';
import { inviteRepository } from '#lib/workspaces/invite-repository.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';

/**
 * Who a layer, an override or a policy's member target may name: a member, or someone invited and not joined yet
 * by the invitation's id (`inviteId` of send-invite), so a team moving in (`npm run import`) can set its schedules
 * up before everyone has accepted. docs/on-call.md, "People not joined yet".
 */
export const assignableIds = async ({ ports: { table, clock }, workspaceId }: Scope): Promise<Set<string>> => {
  const [members, invited] = await Promise.all([
    workspaceRepository(table, workspaceId).listMembers(),
    inviteRepository(table, workspaceId).openInviteIds(clock.now().toISOString()),
  ]);
  return new Set([...members.map((member) => member.id), ...invited]);
};
