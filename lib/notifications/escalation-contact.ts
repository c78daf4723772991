import type { Incident } from '#lib/incidents/incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { log } from '#lib/log/logger.ts';
import { slaPolicyRepository } from '#lib/sla/sla-policy-repository.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';

/** Someone a notification pages: by e-mail, and by SMS when a member who connected a number. */
export interface Pagee {
  email: string;
  userId?: string;
}

/** One `@` with something on each side and a dot in the domain: an address, not a member id or a tier name. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The governing policy's `escalationContact` (docs/escalation.md): an e-mail address is paged as it is; a
 * member's id (the `id` of `get_members`) is paged as that member, e-mail and SMS. Anything else (a tier name
 * such as `tier-2`) names nobody this service can reach: it is logged, and the others are still paged. No
 * policy (or a deleted one), no contact.
 */
export const escalationContactOf = async (scope: Scope, incident: Incident): Promise<Pagee | undefined> => {
  if (!incident.slaPolicyId) return undefined;
  const stored = await slaPolicyRepository(scope.ports.table, scope.workspaceId).findPolicy(incident.slaPolicyId);
  const contact = stored?.policy.escalationContact.trim();
  if (!contact) return undefined;
  if (EMAIL.test(contact)) return { email: contact.toLowerCase() };
  const member = await workspaceRepository(scope.ports.table, scope.workspaceId).getMember(contact);
  if (member) return { email: member.email, userId: member.id };
  log.info('escalation contact names no address and no member: the others are paged', {
    incidentId: incident.id,
    policyId: incident.slaPolicyId,
  });
  return undefined;
};
