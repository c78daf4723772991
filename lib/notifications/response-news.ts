import type { Incident } from '#lib/incidents/incident.ts';
import type { IncidentNotification } from '#lib/incidents/notification-message.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { deliveryRepository } from './delivery-repository.ts';
import type { Pagee } from './escalation-contact.ts';

/**
 * An acknowledgement or a resolution is news for everyone paged for the incident: they stop looking, or
 * know it is over. The escalation contact and anyone else an escalation reached are among them.
 */
export const isResponseNews = ({ event }: IncidentNotification): boolean =>
  event === 'ACKNOWLEDGED' || event === 'RESOLVED';

/** The addresses the incident's earlier pages went to by e-mail (sent, or muted by silent hours). */
export const pagedBefore = async ({ ports, workspaceId }: Scope, incidentId: string): Promise<Pagee[]> => {
  const deliveries = await deliveryRepository(ports.table, workspaceId).queryIncidentDeliveries(incidentId);
  const emails = deliveries
    .filter(({ channel, status, event }) => channel === 'email' && status !== 'FAILED' && event !== 'ACKNOWLEDGED')
    .map(({ recipient }) => recipient);
  return [...new Set(emails)].map((email) => ({ email }));
};

/** The one who acknowledged knows it already: the news is for the others. */
export const isTheActor = (incident: Incident, notification: IncidentNotification, by: string): boolean =>
  notification.event === 'ACKNOWLEDGED' && by.toLowerCase() === incident.acknowledgedBy?.toLowerCase();

/** The plan lookup (policies, the service map) loads with the first breach alert of an escalating workspace. */
const plans = onFirstUse(() => import('#lib/incidents/escalation-plan-of.ts'));

/**
 * An escalation and the SLA response breach fall due at the same deadline and would say the same thing at the
 * same moment. Where the workspace escalates by default (`autoEscalate` on, no escalation policy for the
 * incident's service), an incident still OPEN hears it once: its escalation, which says the target was missed.
 * The breach alert goes alone where nothing escalates, or where a policy pages on its own clock.
 */
export const saidByEscalation = async (
  scope: Scope,
  notification: IncidentNotification,
  incident: Incident,
  autoEscalate: boolean | undefined,
): Promise<boolean> =>
  notification.event === 'RESPONSE_BREACHED' &&
  !!autoEscalate &&
  incident.status === 'OPEN' &&
  !(await (await plans()).escalationPlanOf(scope, incident)).policy;
