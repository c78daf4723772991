import type { Incident } from '#lib/incidents/incident.ts';
import type { Role } from '#lib/identity/caller.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { imsConfigRepository } from '#lib/workspaces/ims-config-repository.ts';
import { workspaceRepository } from '#lib/workspaces/workspace-repository.ts';
import type { AckLink } from './ack-token.ts';
import { escalationContactOf } from './escalation-contact.ts';

/** The roles whose members may acknowledge an incident through the API (a VIEWER may not write). */
const ACKNOWLEDGING_ROLES: ReadonlySet<Role> = new Set(['ADMIN', 'ENGINEER']);

/**
 * Whether the link's holder may still acknowledge, checked when the link is used rather than when it was sent:
 * a member's link acts only while they are a member whose role may acknowledge; an address's link only while it
 * is the workspace's alert address or the incident's escalation contact. A chat link acts for the workspace's
 * channel, which only the workspace's ADMINs connect (docs/security.md).
 */
export const linkHolderMayAcknowledge = async (scope: Scope, link: AckLink, incident: Incident): Promise<boolean> => {
  const { ports, workspaceId } = scope;
  if (link.channel === 'chat') return true;
  if (link.userId) {
    const member = await workspaceRepository(ports.table, workspaceId).getMember(link.userId);
    return member !== undefined && ACKNOWLEDGING_ROLES.has(member.role);
  }
  const address = link.by.toLowerCase();
  const config = await imsConfigRepository(ports.table, workspaceId).getImsConfig();
  if (config?.alertEmail.toLowerCase() === address) return true;
  const contact = await escalationContactOf(scope, incident);
  return contact !== undefined && contact.userId === undefined && contact.email === address;
};
