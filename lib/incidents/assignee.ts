import { BadRequestError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { listWorkspaceMembers } from '#lib/workspaces/members.ts';

/**
 * An incident is assigned only to a member of its workspace: an address nobody in it answers to would
 * leave the incident with an owner who never hears of it.
 */
export const assertAssignable = async (scope: Scope, email: string | null | undefined): Promise<void> => {
  if (!email) return;
  const wanted = email.trim().toLowerCase();
  const members = await listWorkspaceMembers(scope);
  if (!members.some((member) => member.email === wanted)) {
    throw new BadRequestError('Validation failed', [`assignedToEmail: ${email} is not a member of this workspace`]);
  }
};
