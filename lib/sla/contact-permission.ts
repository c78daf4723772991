import { ForbiddenError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';

/** One `@` with something on each side and a dot in the domain, as escalation reads it. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Only an ADMIN may name an address outside the workspace's members as an escalation contact: anyone who may
 * write policies (an ENGINEER, a key with write access) could otherwise have the service mail a stranger from
 * the workspace's sender (issue 48, docs/security.md "Who a page may reach"). A member's id, a member's
 * address and a name that reaches nobody (`tier-2`) are open to every writer.
 */
export const assertContactAllowed = async ({ ports, workspaceId, caller }: Scope, contact: string): Promise<void> => {
  const address = contact.trim().toLowerCase();
  if (!EMAIL.test(address)) return;
  if (caller.kind === 'user' && caller.roles.includes('ADMIN')) return;
  const members = await workspaceRepository(ports.table, workspaceId).listMembers();
  if (members.some(({ email }) => email.toLowerCase() === address)) return;
  throw new ForbiddenError('Only an ADMIN may name an address outside the workspace as escalation contact', [
    'escalationContact: not the address of a member of this workspace',
  ]);
};
