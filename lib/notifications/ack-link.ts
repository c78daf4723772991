import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, withPage } from '#lib/contract/errors.ts';
import { acknowledgeOpenIncident } from '#lib/incidents/acknowledge-incident.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import { systemScope, type AccountScope, type Scope } from '#lib/identity/scope.ts';
import { linkHolderMayAcknowledge } from './ack-link-holder.ts';
import { ackLinkRepository } from './ack-link-repository.ts';
import {
  acknowledgedPage,
  confirmationPage,
  expiredPage,
  goneIncidentPage,
  invalidPage,
  notAllowedPage,
  usedPage,
  type AckPageContext,
} from './ack-page.ts';
import { peopleNames } from '#lib/workspaces/people-names.ts';
import { workspaceTimezone } from '#lib/workspaces/workspace-timezone.ts';
import { verifyAckLink, type AckLink } from './ack-token.ts';
import { deliveryRepository } from './delivery-repository.ts';

/**
 * The link's token checked: its MAC, then its expiry, then its incident in the workspace it names. Anything
 * forged or altered is a 400 naming `token`, as is an expired link; an incident that is gone is a 404. A link
 * whose holder may no longer acknowledge (removed, demoted to VIEWER, no longer the alert address) is a 403.
 * Each comes with the page a person's browser shows for it.
 */
const openLink = async (scope: AccountScope, token: string): Promise<{ link: AckLink; context: AckPageContext }> => {
  const { ports } = scope;
  const link = await verifyAckLink(ports.signingKeys, token);
  if (!link) {
    throw withPage(
      new BadRequestError('This acknowledge link is not valid', ['token: not a link this service made']),
      invalidPage(),
    );
  }
  const linkScope = systemScope(link.workspaceId, ports);
  const timeZone = await workspaceTimezone(linkScope);
  if (ports.clock.now().toISOString() >= link.expiresAt) {
    throw withPage(
      new BadRequestError('This acknowledge link has expired', [
        `token: expired at ${link.expiresAt}; acknowledge the incident in the app`,
      ]),
      expiredPage(link.incidentId, link.expiresAt, timeZone),
    );
  }
  const incident = await incidentRepository(ports.table, link.workspaceId).getIncident(link.incidentId);
  if (!incident) {
    throw withPage(
      new NotFoundError('Incident not found', [`token: no incident ${link.incidentId} in its workspace`]),
      goneIncidentPage(link.incidentId),
    );
  }
  const context: AckPageContext = { incident, timeZone, nameOf: await peopleNames(linkScope) };
  if (!(await linkHolderMayAcknowledge(linkScope, link, incident))) {
    throw withPage(
      new ForbiddenError('This acknowledge link no longer acknowledges', [
        `token: ${link.by} may not acknowledge incidents in this workspace now`,
      ]),
      notAllowedPage(context, link.by),
    );
  }
  return { link, context };
};

/** GET: the confirmation page, which changes nothing (docs/escalation.md, "One-click acknowledge"). */
export const ackLinkPage = async (scope: AccountScope, token: string): Promise<string> => {
  const { link, context } = await openLink(scope, token);
  return confirmationPage(context, link.by);
};

/**
 * POST: uses the link up (a conditional put of its id, so a second use is a 409 that changes nothing), then
 * acknowledges the incident as the link's recipient if it is still OPEN, and notes on the delivery that
 * carried the link that it was acknowledged through it.
 */
export const useAckLink = async (scope: AccountScope, token: string): Promise<string> => {
  const { link, context } = await openLink(scope, token);
  const { incident } = context;
  const { ports } = scope;
  const now = ports.clock.now().toISOString();
  const links = ackLinkRepository(ports.table, link.workspaceId);
  const used = await links.markLinkUsed(link.linkId, { usedAt: now, expiresAt: link.expiresAt });
  if (!used) {
    throw withPage(
      new ConflictError('This acknowledge link was used already', ['token: used already']),
      usedPage(context, link.by, await links.findLinkUse(link.linkId)),
    );
  }
  const recipientScope: Scope = { ...systemScope(link.workspaceId, ports), actor: link.by };
  const result = await acknowledgeOpenIncident(recipientScope, { incident, via: link.channel });
  if (result.acknowledged) {
    await deliveryRepository(ports.table, link.workspaceId).markAcknowledged(
      {
        incidentId: incident.id,
        event: link.event,
        eventAt: link.eventAt,
        channel: link.channel,
        recipient: link.recipient,
      },
      now,
    );
  }
  return acknowledgedPage({ ...context, incident: result.incident }, result.acknowledged);
};
