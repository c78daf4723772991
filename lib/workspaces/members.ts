import type { Member } from './workspace.ts';
import { workspaceRepository } from './workspace-repository.ts';
import type { Scope } from '#lib/identity/scope.ts';

/** A member as `GET /business/get_members` shows it (spec: Business member). */
export const memberView = (member: Member) => ({
  id: member.id,
  email: member.email,
  firstName: member.firstName,
  lastName: member.lastName,
  role: member.role,
  level: member.level ?? null,
  accessPermissions: member.accessPermissions,
  status: member.status,
});

/** The workspace's members in the order they joined. */
export const listWorkspaceMembers = async ({ ports: { table }, workspaceId }: Scope) => {
  const members = await workspaceRepository(table, workspaceId).listMembers();
  return members.sort((a, b) => (a.joinedAt ?? '').localeCompare(b.joinedAt ?? '')).map(memberView);
};
